# Pairs of models for test/diff, made with onnx and numpy (an oracle independent of onnxtxt):
#   opset_a.onnx / opset_b.onnx   ResNet-50 and onnx's version_converter output at opset 13 (its value infos dropped)
#   infer_a.onnx / infer_b.onnx   ResNet-50 and onnx.shape_inference.infer_shapes of it
#   weights_a.onnx / weights_b.onnx  a conv weight as a random initializer, then K elements perturbed
# and expected.json: what changed, as numpy and onnx see it.
# usage: python3 make-pairs.py LIGHT_DIR OUT_DIR
import json
import sys

import numpy as np
import onnx
from onnx import numpy_helper, shape_inference, version_converter

light, out = sys.argv[1], sys.argv[2]
resnet = onnx.load(f"{light}/light_resnet50.onnx")
expected = {}

# opset bump: the converter changes the ops that must change; the changed node indices are found here
converted = version_converter.convert_version(resnet, 13)
del converted.graph.value_info[:]  # the converter also infers shapes; that change is the infer pair's
onnx.save(resnet, f"{out}/opset_a.onnx")
onnx.save(converted, f"{out}/opset_b.onnx")
changed = [i for i, (a, b) in enumerate(zip(resnet.graph.node, converted.graph.node)) if a != b]
expected["opset"] = {
    "from": resnet.opset_import[0].version,
    "to": converted.opset_import[0].version,
    "sameNodeCount": len(resnet.graph.node) == len(converted.graph.node),
    "changedNodes": changed,
    "changedOps": [resnet.graph.node[i].op_type for i in changed],
    "irVersion": [resnet.ir_version, converted.ir_version],
}

# shape inference: only value infos are added
inferred = shape_inference.infer_shapes(resnet)
onnx.save(resnet, f"{out}/infer_a.onnx")
onnx.save(inferred, f"{out}/infer_b.onnx")
expected["infer"] = {"valueInfosAdded": len(inferred.graph.value_info) - len(resnet.graph.value_info)}

# weights: the first ConstantOfShape feeding a Conv becomes an initializer of random values
consumers = {i for n in resnet.graph.node if n.op_type == "Conv" for i in n.input[1:2]}
index = next(i for i, n in enumerate(resnet.graph.node) if n.op_type == "ConstantOfShape" and n.output[0] in consumers)
node = resnet.graph.node[index]
shape_init = next(t for t in resnet.graph.initializer if t.name == node.input[0])
shape = numpy_helper.to_array(shape_init).tolist()
rng = np.random.default_rng(0)
wa = rng.standard_normal(shape).astype(np.float32)
wb = wa.copy()
flat = wb.reshape(-1)
picked = rng.choice(flat.size, size=37, replace=False)
flat[picked] += (rng.standard_normal(37) * 1e-2).astype(np.float32) + np.float32(1e-3)


def with_weight(w):
    m = onnx.ModelProto()
    m.CopyFrom(resnet)
    del m.graph.node[index]
    m.graph.initializer.append(numpy_helper.from_array(w, node.output[0]))
    return m


onnx.save(with_weight(wa), f"{out}/weights_a.onnx")
onnx.save(with_weight(wb), f"{out}/weights_b.onnx")
a64, b64 = wa.astype(np.float64), wb.astype(np.float64)
diff = np.abs(a64 - b64)
nz = b64 != 0
expected["weights"] = {
    "name": node.output[0],
    "elements": int(wa.size),
    "differing": int(np.count_nonzero(diff)),
    "maxAbsDiff": float(diff.max()),
    "maxRelDiff": float((diff[nz] / np.abs(b64[nz])).max()),
    # with a tolerance: numpy.isclose decides
    "atol": 5e-3,
    "differingAtol": int(np.count_nonzero(~np.isclose(a64, b64, rtol=0, atol=5e-3))),
}
with open(f"{out}/expected.json", "w") as f:
    json.dump(expected, f, indent=1)
