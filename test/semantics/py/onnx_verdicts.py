"""onnx's verdicts on models, for the recorded differential test (record-verdicts.ts runs this).

Usage: python3 onnx_verdicts.py < lines > result.json, each line `ID<TAB>PATH<TAB>SHAPES` (SHAPES 1:
also record what infer_shapes(data_prop=True) infers for the node outputs of the main graph, with
the graph outputs' declared types and the value_info removed first).
Output: {ID: {"verdict": "valid"|"invalid"|"unknown", "why": text, "shapes": {name: "ELEM:DIMS"}}}.
"unknown": the model needs an opset newer than this onnx knows. DIMS is `d,d,...` with `?` for an
unknown dim and a symbol as written; `*` for an unknown rank.
"""
import json
import sys

import onnx
import onnx.checker
import onnx.defs
import onnx.shape_inference


def known_opsets():
    best = {"": onnx.defs.onnx_opset_version()}
    for s in onnx.defs.get_all_schemas_with_history():
        if s.domain != "":
            best[s.domain] = max(best.get(s.domain, 0), s.since_version)
    return best


KNOWN = known_opsets()


def knowable(model):
    for o in model.opset_import:
        d = "" if o.domain == "ai.onnx" else o.domain
        if d in KNOWN and o.version > KNOWN[d]:
            return False
    return True


def describe(type_proto):
    if type_proto.WhichOneof("value") != "tensor_type":
        return None
    t = type_proto.tensor_type
    if not t.elem_type:
        return None
    if not t.HasField("shape"):
        return "%d:*" % t.elem_type
    dims = []
    for d in t.shape.dim:
        k = d.WhichOneof("value")
        dims.append(str(d.dim_value) if k == "dim_value" else d.dim_param if k == "dim_param" else "?")
    return "%d:%s" % (t.elem_type, ",".join(dims))


def shapes(model):
    produced = [o for n in model.graph.node for o in n.output if o]
    for o in model.graph.output:
        o.ClearField("type")
    del model.graph.value_info[:]
    inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
    found = {}
    for vi in list(inferred.graph.value_info) + list(inferred.graph.output):
        d = describe(vi.type)
        if d is not None:
            found[vi.name] = d
    return {name: found[name] for name in produced if name in found}


def judge(path, want_shapes):
    model = onnx.load(path, load_external_data=False)
    if not knowable(model):
        return {"verdict": "unknown"}
    # This onnx knows IR versions up to its own; the opsets it knows need no newer one.
    if model.ir_version > onnx.IR_VERSION:
        model.ir_version = onnx.IR_VERSION
    out = {}
    try:
        onnx.checker.check_model(model, full_check=True)
        out["verdict"] = "valid"
    except Exception as e:  # noqa: BLE001 - every failure is a verdict
        out["verdict"] = "invalid"
        out["why"] = (str(e).strip().splitlines() or [type(e).__name__])[0][:200]
    if want_shapes:
        try:
            out["shapes"] = shapes(model)
        except Exception as e:  # noqa: BLE001
            out["shapesError"] = (str(e).strip().splitlines() or [type(e).__name__])[0][:200]
    return out


def main():
    result = {"onnx": onnx.__version__}
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        ident, path, want = line.split("\t")
        result[ident] = judge(path, want == "1")
    json.dump(result, sys.stdout)


main()
