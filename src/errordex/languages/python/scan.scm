; What the evidence scan of a Python file reads; scan.py walks the
; captures in document order instead of every node of the tree.
(identifier) @id
(string) @string
(interpolation) @interpolation
(class_definition) @class
(function_definition) @function
(call) @call
(with_statement) @with
(assert_statement) @assert
(except_clause) @except
; `self.closed = True`: the state a method sets, which another checks
(assignment left: (attribute object: (identifier) attribute: (identifier))) @self_assign
; The statements that bind names (scan.py's _BINDING), for the parameters
; each function binds again (_rebinds), without a walk of every body.
(assignment) @binding
(augmented_assignment) @binding
(for_statement) @binding
(named_expression) @binding
