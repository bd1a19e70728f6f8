; TypeScript only: classes the JavaScript grammar has no node for.
(abstract_class_declaration) @js.class
