// TSX: JSX in a TypeScript file.
export function View(props: { name?: string }) {
  if (!props.name) {
    throw new Error(`View needs a name, got ${props.name}`);
  }
  return <div className="view">{props.name}</div>;
}
