; What the evidence scan reads (scan.py); one walk with extract.scm.

(function_declaration) @scan.func
(method_declaration) @scan.func
(call_expression) @scan.call

; err.Error() != "msg" (either way round): a test's check of an error's text
(binary_expression
  left: (call_expression function: (selector_expression))
  right: [(interpreted_string_literal) (raw_string_literal)]) @scan.cmp
(binary_expression
  left: [(interpreted_string_literal) (raw_string_literal)]
  right: (call_expression function: (selector_expression))) @scan.cmp

; every name, for verify
(identifier) @scan.id
(field_identifier) @scan.id
(type_identifier) @scan.id
(package_identifier) @scan.id
