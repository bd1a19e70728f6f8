; Assignments to a plain name, to resolve `raise X(msg)` to msg's value.
(assignment left: (identifier) @name) @assign
(augmented_assignment left: (identifier) @name) @augment
