; Candidates for throw sites, read by extract.py. This query and scan.scm
; are one walk of the tree (grammars.captures). The names each candidate
; must have are tested in rust.py: a predicate here would cost more (the
; bindings run it in Python).

; panic!(...), std::panic!(...), anyhow::bail!(...), write!(f, ...)
(macro_invocation) @macro

; x.expect("..."), x.expect_err("..."), f.write_str("..."), f.pad("..."), "...".fmt(f)
(call_expression
  function: (field_expression field: (field_identifier) @method.name)
  arguments: (arguments))

; Err(...)
(call_expression
  function: (identifier) @err.name
  arguments: (arguments))

; thiserror: #[error("...")]
(attribute_item
  (attribute
    (identifier) @attr.name
    arguments: (token_tree)))

; impl Display for T / impl Error for T
(impl_item
  trait: (type_identifier) @impl.trait
  type: (_))
(impl_item
  trait: (scoped_type_identifier name: (type_identifier) @impl.scoped_trait)
  type: (_))

; error values built (construct.py): Error::X { .. }, FooError { .. },
; Error::X(..), Error::X
(struct_expression name: (_) @construct.struct)
(scoped_identifier) @construct.path
; a unit struct error passed as a value: .ok_or(Empty), Err(Empty)
(arguments (identifier) @construct.unit)
; an enum's variants (construct.py: one Display for the whole enum prints each)
(enum_item name: (type_identifier) @enum.name)

; macro_rules! rules that write a literal they bind (macros.py), and
; use x::y as z; (a macro called by another name)
(macro_definition) @macro_rules
(use_as_clause alias: (identifier) @use.alias)

; const NAME: &str = "..."; static NAME: &str = "...";
(const_item name: (identifier) @const.name)
(static_item name: (identifier) @const.name)

; Token trees tree-sitter leaves unparsed: macro_rules! bodies, quote!{...},
; and the arguments of every macro call.
(token_tree (identifier) @tt.name)
