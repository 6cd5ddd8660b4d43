"""Dumps what onnx's reference shape inference infers for each node output of each model.

Usage: python3 reference_shapes.py < paths.txt > result.json
Each model's graph outputs lose their declared types first, so what is reported is inferred
from the operators, not copied from the declaration. Output: {path: {"opset": N, "values":
{name: {"elem": int, "rank": int|null, "dims": [int|str|null]}}} or {"error": text}}.
"""
import json
import sys

import onnx
import onnx.shape_inference


def describe(type_proto):
    if type_proto.WhichOneof("value") != "tensor_type":
        return None
    t = type_proto.tensor_type
    if not t.elem_type:
        return None
    out = {"elem": t.elem_type, "rank": None, "dims": None}
    if t.HasField("shape"):
        dims = []
        for d in t.shape.dim:
            k = d.WhichOneof("value")
            dims.append(d.dim_value if k == "dim_value" else (d.dim_param or None) if k == "dim_param" else None)
        out["rank"] = len(dims)
        out["dims"] = dims
    return out


def dump(path):
    model = onnx.load(path)
    opset = max((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), default=0)
    produced = {o for n in model.graph.node for o in n.output if o}
    for o in model.graph.output:
        o.ClearField("type")
    del model.graph.value_info[:]
    inferred = onnx.shape_inference.infer_shapes(model)
    values = {}
    for vi in list(inferred.graph.value_info) + list(inferred.graph.output):
        if vi.name in produced:
            d = describe(vi.type)
            if d is not None:
                values[vi.name] = d
    return {"opset": opset, "values": values}


def main():
    result = {}
    for line in sys.stdin:
        path = line.strip()
        if not path:
            continue
        try:
            result[path] = dump(path)
        except Exception as e:  # noqa: BLE001 - any failure is reported per model
            result[path] = {"error": str(e).splitlines()[0] if str(e) else type(e).__name__}
    json.dump(result, sys.stdout)


main()
