; What the evidence scan of a Rust file reads; scan.py walks the
; captures in document order instead of every node of the tree.
[
  (identifier)
  (type_identifier)
  (field_identifier)
  (primitive_type)
  (shorthand_field_identifier)
] @id
(mod_item) @scope
(trait_item) @scope
(impl_item) @scope
(function_item) @scope
(call_expression) @call
(macro_invocation) @macro
(token_tree) @tt
(match_expression) @match

; a struct's or an enum variant's declared shape: what a derived Debug prints
(struct_item name: (type_identifier) @shape.name)
(enum_variant name: (identifier) @shape.name)
(let_declaration) @let
; the loops of table tests (tables.py)
(for_expression) @for
