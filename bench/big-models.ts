// Big models through the CLI, each command as its own process timed with /usr/bin/time
// (wall seconds and peak resident memory):
//  - print of a model with 128 MiB of float32 weights (one initializer of 2^25 random values),
//    stdout to a file. The reference would be onnx's C++ printer (onnx.printer.to_text), which
//    Debian's python3-onnx 1.12 does not have (it came in onnx 1.13); the row shows protobuf's
//    C++ text format of the same model instead (str(ModelProto), python3-onnx's cpp backend),
//    which prints the weights as escaped bytes rather than numbers: a yardstick, not the goal.
//  - run of an 8-node model (MatMul chain) with 1 GiB of external float32 weights, against
//    onnxruntime-node creating a session and running once (bench/ort-run.ts); outputs compared.
//    Also `run --backend ort`, which should cost what onnxruntime-node itself does.
// Usage: npm run build && node dist/bench/big-models.js [--keep DIR]

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { create } from '@bufbuild/protobuf';
import {
  GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema, StringStringEntryProtoSchema, TensorProtoSchema, TensorProto_DataLocation,
  TensorProto_DataType, TypeProtoSchema, TypeProto_TensorSchema, TensorShapeProtoSchema, TensorShapeProto_DimensionSchema, ValueInfoProtoSchema, type ModelProto,
} from '../proto/src/index.js';
import { decodeValue, encodeModel, encodeValue } from '../core/src/io/index.js';
import { compareOutputs } from './compare.js';
import { seededUniform } from './seeded.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(REPO, 'bin/onnxtxt.js');
const ORT_SCRIPT = path.join(REPO, 'dist/bench/ort-run.js');
const PYTHON = '/usr/bin/python3';

interface Measured {
  seconds: number;
  peakMiB: number;
  ok: boolean;
  stderr: string;
}

/** Runs `argv` under /usr/bin/time, stdout to `stdoutFile`. */
function measure(argv: string[], stdoutFile: string): Measured {
  const out = fs.openSync(stdoutFile, 'w');
  try {
    const r = spawnSync('/usr/bin/time', ['-f', '@@ %e %M', ...argv], { stdio: ['ignore', out, 'pipe'], encoding: 'utf8' });
    const m = /@@ ([\d.]+) (\d+)\s*$/.exec(r.stderr ?? '');
    return { seconds: m ? Number(m[1]) : NaN, peakMiB: m ? Number(m[2]) / 1024 : NaN, ok: r.status === 0, stderr: (r.stderr ?? '').replace(/@@.*$/s, '').trim() };
  } finally {
    fs.closeSync(out);
  }
}

function floatInfo(name: string, dims: number[]) {
  const shape = create(TensorShapeProtoSchema, { dim: dims.map((d) => create(TensorShapeProto_DimensionSchema, { value: { case: 'dimValue', value: BigInt(d) } })) });
  return create(ValueInfoProtoSchema, { name, type: create(TypeProtoSchema, { value: { case: 'tensorType', value: create(TypeProto_TensorSchema, { elemType: TensorProto_DataType.FLOAT, shape }) } }) });
}

function randomWeights(n: number, seed: number): Float32Array {
  const w = seededUniform(n, seed);
  for (let i = 0; i < n; i++) w[i] = (w[i]! - 0.5) * 0.05;
  return w;
}

/** y = Identity(W), W 2^25 float32 values (128 MiB) stored inline. */
function printModel(): ModelProto {
  const n = 2 ** 25;
  const w = randomWeights(n, 7);
  return create(ModelProtoSchema, {
    irVersion: 8n,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: 18n })],
    graph: create(GraphProtoSchema, {
      name: 'weights',
      initializer: [create(TensorProtoSchema, { name: 'W', dims: [BigInt(n)], dataType: TensorProto_DataType.FLOAT, rawData: new Uint8Array(w.buffer) })],
      node: [create(NodeProtoSchema, { opType: 'Identity', input: ['W'], output: ['y'] })],
      output: [floatInfo('y', [n])],
    }),
  });
}

const WIDE = 8192;
const NARROW = 4096;

/** x[1,4096] through 8 MatMuls with weights alternating [4096,8192] and [8192,4096]: 1 GiB in `data`. */
function writeRunModel(dir: string): void {
  const dataName = 'run.onnx.data';
  const fd = fs.openSync(path.join(dir, dataName), 'w');
  const initializer = [];
  const node = [];
  let offset = 0;
  let prev = 'x';
  for (let i = 0; i < 8; i++) {
    const dims = i % 2 === 0 ? [NARROW, WIDE] : [WIDE, NARROW];
    const w = randomWeights(dims[0]! * dims[1]!, 100 + i);
    fs.writeSync(fd, new Uint8Array(w.buffer));
    const entry = (key: string, value: string) => create(StringStringEntryProtoSchema, { key, value });
    initializer.push(create(TensorProtoSchema, {
      name: `W${i}`, dims: dims.map(BigInt), dataType: TensorProto_DataType.FLOAT, dataLocation: TensorProto_DataLocation.EXTERNAL,
      externalData: [entry('location', dataName), entry('offset', String(offset)), entry('length', String(w.byteLength))],
    }));
    offset += w.byteLength;
    const out = i === 7 ? 'y' : `h${i}`;
    node.push(create(NodeProtoSchema, { opType: 'MatMul', name: `mm${i}`, input: [prev, `W${i}`], output: [out] }));
    prev = out;
  }
  fs.closeSync(fd);
  const model = create(ModelProtoSchema, {
    irVersion: 8n,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: 18n })],
    graph: create(GraphProtoSchema, { name: 'chain', initializer, node, input: [floatInfo('x', [1, NARROW])], output: [floatInfo('y', [1, NARROW])] }),
  });
  fs.writeFileSync(path.join(dir, 'run.onnx'), encodeModel(model));
}

function row(label: string, m: Measured): string {
  return `${label.padEnd(44)} ${m.ok ? `${m.seconds.toFixed(2).padStart(7)} s ${m.peakMiB.toFixed(0).padStart(7)} MiB` : `failed: ${m.stderr.split('\n')[0]}`}`;
}

function main(argv: string[]): number {
  const keep = argv[0] === '--keep' ? argv[1] : undefined;
  const work = keep ?? fs.mkdtempSync(path.join(tmpdir(), 'onnxtxt-big-'));
  fs.mkdirSync(work, { recursive: true });
  let failures = 0;
  try {
    const printFile = path.join(work, 'print.onnx');
    if (!fs.existsSync(printFile)) fs.writeFileSync(printFile, encodeModel(printModel()));
    console.log(`print of a model with 128 MiB of float32 weights (${(fs.statSync(printFile).size / 2 ** 20).toFixed(0)} MiB file), stdout to a file`);
    const mine = measure([process.execPath, CLI, 'print', printFile], path.join(work, 'print.onnxtxt'));
    console.log(row('onnxtxt print', mine));
    console.log(`  text: ${(fs.statSync(path.join(work, 'print.onnxtxt')).size / 2 ** 20).toFixed(0)} MiB`);
    const hasPrinter = spawnSync(PYTHON, ['-c', 'import onnx.printer'], { encoding: 'utf8' }).status === 0;
    if (hasPrinter) {
      console.log(row('onnx C++ printer (onnx.printer.to_text)', measure([PYTHON, '-c', 'import onnx,onnx.printer,sys; sys.stdout.write(onnx.printer.to_text(onnx.load(sys.argv[1])))', printFile], path.join(work, 'print.ref.txt'))));
    } else {
      console.log(`  onnx C++ printer: not in this python3-onnx (${spawnSync(PYTHON, ['-c', 'import onnx; print(onnx.__version__)'], { encoding: 'utf8' }).stdout.trim() || 'not installed'}; onnx.printer came in 1.13)`);
      console.log(row('protobuf C++ text format (str(ModelProto))', measure([PYTHON, '-c', 'import onnx,sys; sys.stdout.write(str(onnx.load(sys.argv[1])))', printFile], path.join(work, 'print.pbtxt'))));
    }
    if (!mine.ok) failures++;

    if (!fs.existsSync(path.join(work, 'run.onnx'))) writeRunModel(work);
    const x = seededUniform(NARROW, 3);
    const rawInput = path.join(work, 'x.f32');
    fs.writeFileSync(rawInput, new Uint8Array(x.buffer));
    const pbInput = path.join(work, 'x.pb');
    fs.writeFileSync(pbInput, encodeValue({ kind: 'tensor', value: create(TensorProtoSchema, { name: 'x', dims: [1n, BigInt(NARROW)], dataType: TensorProto_DataType.FLOAT, rawData: new Uint8Array(x.buffer) }) }));
    console.log(`\nrun of an 8-node MatMul chain with ${(fs.statSync(path.join(work, 'run.onnx.data')).size / 2 ** 30).toFixed(2)} GiB of external weights`);
    const ortOut = path.join(work, 'y.ort.f32');
    const ort = measure([process.execPath, ORT_SCRIPT, path.join(work, 'run.onnx'), 'x', rawInput, `1,${NARROW}`, ortOut], path.join(work, 'ort.stdout'));
    console.log(row('onnxruntime-node (session + one run)', ort));
    const outDir = path.join(work, 'out');
    const run = measure([process.execPath, CLI, 'run', path.join(work, 'run.onnx'), '--input', `x=${pbInput}`, '--output-dir', outDir, '--quiet'], path.join(work, 'run.stdout'));
    console.log(row('onnxtxt run', run));
    const viaOrt = measure([process.execPath, CLI, 'run', path.join(work, 'run.onnx'), '--input', `x=${pbInput}`, '--backend', 'ort', '--quiet'], path.join(work, 'run-ort.stdout'));
    console.log(row('onnxtxt run --backend ort', viaOrt));
    if (!viaOrt.ok) failures++;
    if (ort.ok && run.ok) {
      console.log(`  ratio onnxtxt / onnxruntime-node: time ${(run.seconds / ort.seconds).toFixed(2)}x, memory ${(run.peakMiB / ort.peakMiB).toFixed(2)}x`);
      const expected = fs.readFileSync(ortOut);
      const value = decodeValue(fs.readFileSync(path.join(outDir, 'output_0.pb')), 'tensor');
      if (value.kind === 'tensor') {
        const t = value.value;
        const actual = new Float32Array(t.rawData.buffer.slice(t.rawData.byteOffset, t.rawData.byteOffset + t.rawData.byteLength));
        const c = compareOutputs(actual, new Float32Array(expected.buffer.slice(expected.byteOffset, expected.byteOffset + expected.byteLength)), 1e-3, 1e-5);
        console.log(`  outputs: ${c.summary}`);
        if (!c.ok) failures++;
      }
    } else failures++;
  } finally {
    if (!keep) fs.rmSync(work, { recursive: true, force: true });
  }
  return failures === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
