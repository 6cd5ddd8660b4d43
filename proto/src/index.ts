// The ONNX protobuf binding (generated) plus the data-type facts every stage shares.
export * from "../gen/onnx_pb.js";
export * from "./data-types.js";
