; Throw statements and classes, read by extract.py. This query, forward.scm
; and scan.scm are one walk of the tree (grammars.captures).
(raise_statement) @raise
(assert_statement) @assert
(class_definition) @class
; Scopes (with function_definition @function), for the assignments of each.
(lambda) @lambda
; Assignments to a plain name, to resolve `raise X(msg)` to msg's value.
(assignment left: (identifier)) @assign
(augmented_assignment left: (identifier)) @augment
; A parameter bound again by unpacking (`method, *args = method.split(":")`).
(assignment left: (pattern_list)) @unpack
; `from .exceptions import JSONDecodeError as RequestsJSONDecodeError`: a raise
; of the alias raises the class under its own name.
(import_from_statement name: (aliased_import) @alias)
