#!/bin/sh
':' //; unset NODE_EXTRA_CA_CERTS
':' //; _u= && _f= && case $1 in convert|check|print|format) _f="--max-semi-space-size=2 --initial-old-space-size=128" _t=ee957b81 && { [ "$1" != print ] || _f="--min-semi-space-size=64 --max-semi-space-size=64" _t=794260c3; } && [ -z "$NODE_OPTIONS" ] && _n=$(command -v node) && _d=${ONNXTXT_COMPILE_CACHE:-${TMPDIR:-/tmp}/onnxtxt-compile-cache-$(id -u)} && [ "$_d" != off ] && case $0 in /*) _s=$0 ;; *) _s=$PWD/$0 ;; esac && ONNXTXT_SNAPSHOT_BLOB=$_d/snapshots$_n$_s.$1.$_t.blob && export ONNXTXT_SNAPSHOT_BLOB && [ -O "$_d" ] && [ -O "$ONNXTXT_SNAPSHOT_BLOB" ] && ! [ "$_n" -nt "$ONNXTXT_SNAPSHOT_BLOB" ] && ! [ "$_n" -ot "$ONNXTXT_SNAPSHOT_BLOB" ] && { true <&0; } 2>/dev/null && _u=1 ;; esac
':' //; if [ "$_u" = 1 ]; then for _g in INT TERM HUP; do trap "kill -$_g \$_p 2>/dev/null" $_g; done; { node --snapshot-blob "$ONNXTXT_SNAPSHOT_BLOB" $_f "$0" "$@" <&3 3<&- & _p=$!; } 3<&0; while wait $_p; _r=$?; kill -0 $_p 2>/dev/null; do :; done; [ $_r = 14 ] || exit $_r; rm -f "$ONNXTXT_SNAPSHOT_BLOB"; trap - INT TERM HUP; fi
':' //; exec node ${_f:---max-semi-space-size=32} "$0" "$@"
// Both a shell script and an ES module. Run as a program (a POSIX shell reads the lines above;
// JavaScript sees strings and comments), it starts Node from the command's start-up snapshot
// when there is one for this Node and this file, private to the user and stamped with this
// Node's time, and no NODE_OPTIONS is set (Node refuses a snapshot made with other V8 flags).
// It waits for that Node, passing INT, TERM and HUP on; when Node refuses the snapshot (exit
// 14: made by another Node, as behind a version manager's shim), it removes it and runs the
// command without.
// cli/src/snapshot-request.ts makes it in the background for the commands it lists, and
// cli/src/snapshot-builder.ts is what it holds. Otherwise, and when Node runs this file itself
// (`node bin/onnxtxt.js`, or on Windows), it runs the CLI from the single-file bundle
// `npm run build` makes (a code cache: dist/cli/src/bundle-loader.js), or from the compiled
// modules when the bundle is missing or older than the last tsc build. An installed package
// has no tsc build record (it is not packed), so there the bundle is used when present. The
// shell lines also drop NODE_EXTRA_CA_CERTS: the CLI makes no TLS connection, and Node would
// read and parse those certificates at every start (30 ms with Debian's bundle of them).
import { fileURLToPath } from "node:url";

// The shell lines start Node with the heap sizes cli/src/snapshot-request.ts's flags give each
// command (the others get a 32 MB young generation), and name its snapshot with their tag
// (snapshotTag there): a version with other flags never tries the snapshot of the one before.
// Set here with v8.setFlagsFromString they would have no effect: the heap is sized at start-up.

const dist = new URL("../dist/", import.meta.url);
const bundle = fileURLToPath(new URL("cli/src/main.bundle.cjs", dist));
const { bundleIsFresh } = await import(new URL("core/src/node/code-cache.js", dist).href);
const argv = process.argv.slice(2);
if (bundleIsFresh(bundle, fileURLToPath(new URL(".tsbuildinfo", dist)))) {
  const { runBundle } = await import(new URL("cli/src/bundle-loader.js", dist).href);
  process.exitCode = await runBundle(bundle, argv);
} else {
  const { main, processOutput } = await import(new URL("cli/src/main.js", dist).href);
  process.exitCode = await main(argv, processOutput());
}
