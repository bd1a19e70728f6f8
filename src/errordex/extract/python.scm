; Throw statements and classes, read by python.py. This query, python_forward.scm
; and scan_python.scm are one walk of the tree (grammars.captures).
(raise_statement) @raise
(assert_statement) @assert
(class_definition) @class
; Scopes (with function_definition @function), for the assignments of each.
(lambda) @lambda
; Assignments to a plain name, to resolve `raise X(msg)` to msg's value.
(assignment left: (identifier)) @assign
(augmented_assignment left: (identifier)) @augment
