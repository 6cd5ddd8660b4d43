// A shallow copy of a protobuf message with some fields replaced: the same prototype (where
// protobuf-es keeps proto2 defaults and presence) and the same field objects, so unchanged
// tensors and subgraphs are shared, not copied.
export function shallow<T extends object>(msg: T, changes: Partial<T>): T {
  return Object.assign(Object.create(Object.getPrototypeOf(msg) as object) as T, msg, changes);
}
