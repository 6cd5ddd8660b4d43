#!/usr/bin/env python3
"""An editor-like LSP client with no project code: starts `onnxtxt-ls --stdio` and shows what
an editor sees. Usage: python3 scripts/lsp-demo.py [path/to/bin/onnxtxt-ls.js]"""
import json, os, re, subprocess, sys

BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "bin", "onnxtxt-ls.js")
proc = subprocess.Popen(["node", BIN, "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
next_id = [0]
notes = []

def send(msg):
    body = json.dumps(msg).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()

def read():
    length = None
    while True:
        line = proc.stdout.readline().decode().strip()
        if not line:
            break
        if line.lower().startswith("content-length:"):
            length = int(line.split(":")[1])
    return json.loads(proc.stdout.read(length))

def request(method, params):
    next_id[0] += 1
    send({"jsonrpc": "2.0", "id": next_id[0], "method": method, "params": params})
    while True:
        msg = read()
        if msg.get("id") == next_id[0]:
            return msg
        notes.append(msg)

def notify(method, params):
    send({"jsonrpc": "2.0", "method": method, "params": params})

def diagnostics_for(uri, version):
    while True:
        for n in notes:
            p = n.get("params", {})
            if n.get("method") == "textDocument/publishDiagnostics" and p.get("uri") == uri and p.get("version") == version:
                notes.remove(n)
                return p["diagnostics"]
        notes.append(read())

VALID = """<ir_version: 10, opset_import: ["" : 21]>
mlp (float[N, 4] x) => (float[N, 2] y) <float[4, 2] W = {1, 2, 3, 4, 5, 6, 7, 8}> {
  h = MatMul (x, W)
  y = Relu (h)
}
"""
BROKEN = VALID.replace("Relu (h)", "Relu (h")

caps = request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}})["result"]["capabilities"]
notify("initialized", {})
print("capabilities:", ", ".join(sorted(caps)))

def open_doc(name, text):
    uri = "file:///tmp/demo/%s.onnxtxt" % name
    notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "onnxtxt", "version": 1, "text": text}})
    return uri

ok = open_doc("ok", VALID)
# The last publication for version 1 is the full analysis.
print("valid file diagnostics:", diagnostics_for(ok, 1))
bad = open_doc("bad", BROKEN)
d = diagnostics_for(bad, 1)
print("broken file: line %d: %s" % (d[0]["range"]["start"]["line"] + 1, d[0]["message"]))
pos = lambda line, ch: {"textDocument": {"uri": ok}, "position": {"line": line, "character": ch}}
print("hover on W:", request("textDocument/hover", pos(2, 17))["result"]["contents"]["value"].split("\n")[1])
print("hover on h:", request("textDocument/hover", pos(3, 12))["result"]["contents"]["value"].split("\n")[1])
print("definition of h:", request("textDocument/definition", pos(3, 12))["result"])
edits = request("textDocument/rename", dict(pos(3, 12), newName="hidden"))["result"]["changes"][ok]
print("rename h -> hidden:", [(e["range"]["start"]["line"] + 1, e["range"]["start"]["character"], e["newText"]) for e in edits])
typing = open_doc("typing", VALID.replace("y = Relu (h)", "y = Re"))
items = request("textDocument/completion", {"textDocument": {"uri": typing}, "position": {"line": 3, "character": 8}})["result"]["items"]
labels = [i["label"] for i in items]
print("completion after '= Re': %d ops, including %s" % (len(labels), [l for l in labels if l in ("Relu", "Reshape", "Resize")]))
messy = open_doc("messy", VALID.replace("h = MatMul (x, W)", "h=MatMul(x,W)"))
fmt = request("textDocument/formatting", {"textDocument": {"uri": messy}, "options": {"tabSize": 2, "insertSpaces": True}})["result"]
print("formatting edits:", [(e["range"]["start"]["line"] + 1, e["newText"]) for e in fmt])
run = request("workspace/executeCommand", {"command": "onnxtxt.run", "arguments": [{"uri": ok, "inputs": {"x": "float[1, 4] {1, 0, 0, -1}"}}]})["result"]
print("run-cell:", run["outputs"], "in %.1f ms" % run["elapsedMs"])
value = request("textDocument/hover", pos(3, 12))["result"]["contents"]["value"]
print("hover on h after the run:", re.findall(r"```onnxtxt\n(.*?)\n```", value, re.S)[-1])
request("shutdown", None)
notify("exit", None)
proc.wait(timeout=10)
print("server exit code:", proc.returncode)
