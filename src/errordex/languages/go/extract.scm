; Candidates for throw sites, read by extract.py. This query and scan.scm
; are one walk of the tree (grammars.captures); names are tested in Python.

; errors.New(...), fmt.Errorf(...), log.Fatalf(...), f.failf(...)
(call_expression
  function: (selector_expression
    operand: (identifier) @call.pkg
    field: (field_identifier))
  arguments: (argument_list))

; panic(...), a forwarding helper failf(...)
(call_expression
  function: (identifier) @call.fn
  arguments: (argument_list))

; func (e *T) Error() string { ... }
(method_declaration name: (field_identifier) @method.name)

; return ..., ErrX / return ..., &T{...}
(return_statement) @return
