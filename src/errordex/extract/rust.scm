; Candidates for throw sites. Each pattern's captures are read by rust.py;
; the predicates keep Python from seeing nodes it would throw away.

; panic!(...), std::panic!(...), anyhow::bail!(...), write!(f, ...)
(macro_invocation
  macro: [
    (identifier) @macro.name
    (scoped_identifier name: (identifier) @macro.name)
  ]
  (#any-of? @macro.name
    "panic" "unimplemented" "todo" "unreachable"
    "assert" "assert_eq" "assert_ne" "debug_assert" "debug_assert_eq" "debug_assert_ne"
    "bail" "anyhow" "format_err" "ensure" "write" "writeln")) @macro

; x.expect("..."), x.expect_err("..."), f.write_str("..."), f.pad("...")
(call_expression
  function: (field_expression field: (field_identifier) @method.name)
  arguments: (arguments) @method.args
  (#any-of? @method.name "expect" "expect_err" "write_str" "pad")) @method

; Err(...)
(call_expression
  function: (identifier) @err.name
  arguments: (arguments) @err.args
  (#eq? @err.name "Err")) @err

; thiserror: #[error("...")]
(attribute_item
  (attribute
    (identifier) @attr.name
    arguments: (token_tree) @attr.args)
  (#eq? @attr.name "error")) @attr

; impl Display for T / impl Error for T
(impl_item
  trait: [
    (type_identifier) @impl.trait
    (scoped_type_identifier name: (type_identifier) @impl.trait)
  ]
  type: (_) @impl.type
  (#any-of? @impl.trait "Display" "Error")) @impl

; Token trees tree-sitter leaves unparsed: macro_rules! bodies, quote!{...},
; and the arguments of every macro call.
((token_tree (identifier) @tt.name)
  (#any-of? @tt.name
    "panic" "unimplemented" "todo" "unreachable"
    "assert" "assert_eq" "assert_ne" "debug_assert" "debug_assert_eq" "debug_assert_ne"
    "bail" "anyhow" "format_err" "ensure" "expect" "expect_err" "Err" "error"))
