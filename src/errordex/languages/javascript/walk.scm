; One walk of a JavaScript or TypeScript file: what the extractor and the
; scan read (capture names are shared: grammars.captures).
(throw_statement) @js.throw
(call_expression) @js.call
(new_expression) @js.new
[(class_declaration) (class)] @js.class
[
  (function_declaration)
  (generator_function_declaration)
  (method_definition)
  (arrow_function)
  (function_expression)
] @js.function
(catch_clause) @js.catch
(export_statement) @js.export
(comment) @js.comment
