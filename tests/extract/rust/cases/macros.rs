// Sites inside token trees tree-sitter does not parse: macro_rules! bodies,
// quote! {...}, and the arguments of other macros.
macro_rules! check_range {
    ($value:expr, $max:expr) => {
        if $value > $max {
            panic!("{} is out of range (max {})", $value, $max);
        }
    };
    ($value:expr) => {
        $value.expect("value must be present")
    };
}

macro_rules! error_enum {
    ($name:ident) => {
        #[derive(Debug, thiserror::Error)]
        pub enum $name {
            #[error("generated variant failed")]
            Failed,
        }
    };
}

fn generate() -> proc_macro2::TokenStream {
    quote::quote! {
        fn generated() {
            unimplemented!("generated code is not done");
        }
    }
}

fn nested(items: &[Option<u8>]) {
    println!("{:?}", items[0].expect("first item is set"));
    let v = vec![items[1].expect("second item is set")];
    println!("{:?}", v);
}

macro_rules! fail {
    ($msg:literal) => {
        return Err(format!("failed: {}", $msg))
    };
}

// Items wrapped in a macro call (tokio's cfg_*! style): the fn name and its
// #[cfg] tokens are still read.
cfg_rt! {
    #[cfg(feature = "rt")]
    pub(crate) fn in_cfg_macro() {
        panic!("inside a cfg macro");
    }
}
