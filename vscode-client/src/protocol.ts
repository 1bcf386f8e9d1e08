// Shapes of what the server's commands answer: plain data, shared by the views (a module of
// its own, so that no view imports the extension that imports it).

export interface RangeData {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
