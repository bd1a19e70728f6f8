// TypeScript: types, access modifiers, abstract classes and `as`.
export abstract class Shape {
  abstract area(): number;
}
export class ParseError extends Error {
  constructor(public readonly input: string, position: number) {
    super(`cannot parse ${input} at ${position}`);
  }
}
export function parse<T>(input: string, strict = true): T {
  if (strict && input.length === 0) {
    throw new ParseError(input, 0);
  }
  const value = JSON.parse(input) as T;
  if (value === null) throw new TypeError(`null is not a ${typeof value}` as string);
  return value;
}
