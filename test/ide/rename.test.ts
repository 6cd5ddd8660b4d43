import { checkRename, checkRenameRefused } from "./check.js";

const CONTROL = `<ir_version: 10, opset_import: ["" : 21]>
g (bool flag, float[3] x) => (float[3] r) {
  t = Neg (x)
  r = If (flag) <
    then_branch = a () => (float[3] t) {
      t = Abs (x)
    },
    else_branch = b () => (float[3] out) {
      out = Add (x, t)
    }
  >
}
`;

const FUNCS = `<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
g (float[N] x) => (float[N] a, float[N] b) {
  a = local.Scale (x)
  b = local.Scale <alpha = 0.5> (x)
}

<domain: "local", opset_import: ["" : 21]>
Scale <alpha: float = 0.1> (x) => (y) {
  s = Constant <value_float: float = @alpha> ()
  y = Mul (x, s)
}
`;

describe("ide: rename", () => {
  it("renames an outer value and its captures inside subgraphs", () => {
    checkRename(
      CONTROL.replace("(bool flag, float[3] x)", "(bool flag, float[3] $0x)"),
      "input",
      CONTROL.replaceAll("(x", "(input").replace("float[3] x)", "float[3] input)").replace("Add (x,", "Add (input,"),
    );
  });

  it("keeps a subgraph's own value apart from the outer one of the same name", () => {
    // `t` in then_branch is local; the outer `t` is captured by else_branch.
    const outer = CONTROL.replace("  t = Neg", "  $0t = Neg");
    checkRename(outer, "u", CONTROL.replace("  t = Neg", "  u = Neg").replace("Add (x, t)", "Add (x, u)"));
    const inner = CONTROL.replace("      t = Abs", "      $0t = Abs");
    checkRename(inner, "v", CONTROL.replace("      t = Abs", "      v = Abs").replace("(float[3] t)", "(float[3] v)"));
  });

  it("quotes a new name that is not an identifier or is a type keyword", () => {
    checkRename(
      CONTROL.replace("  t = Neg", "  $0t = Neg"),
      "layer.0/t",
      CONTROL.replace("  t = Neg", '  "layer.0/t" = Neg').replace("Add (x, t)", 'Add (x, "layer.0/t")'),
    );
    checkRename(
      CONTROL.replace("  t = Neg", "  $0t = Neg"),
      "float",
      CONTROL.replace("  t = Neg", '  "float" = Neg').replace("Add (x, t)", 'Add (x, "float")'),
    );
  });

  it("renames a function and its call sites", () => {
    checkRename(FUNCS.replace("Scale <alpha: float", "$0Scale <alpha: float"), "Scale2", FUNCS.replaceAll("Scale", "Scale2"));
  });

  it("renames a function parameter, its @refs and call-site attributes", () => {
    checkRename(FUNCS.replace("@alpha", "@$0alpha"), "slope", FUNCS.replaceAll("alpha", "slope"));
  });

  it("refuses op names, keywords, and names call sites cannot write", () => {
    checkRenameRefused(FUNCS.replace("Mul (x, s)", "M$0ul (x, s)"), "Add", /op names/);
    checkRenameRefused(FUNCS.replace("(float[N] x)", "(fl$0oat[N] x)"), "y", /keywords/);
    checkRenameRefused(FUNCS.replace("Scale <alpha: float", "$0Scale <alpha: float"), "my scale", /cannot be quoted/);
    checkRenameRefused(CONTROL.replace("  t = Neg", "  $0t = Neg"), "flag", /already defined in this scope/);
    // Renaming the subgraph's own `t` to `x` would hide the captured outer `x`.
    checkRenameRefused(CONTROL.replace("      t = Abs", "      $0t = Abs"), "x", /enclosing or nested/);
    // Renaming the outer `x` to `out` would be shadowed inside else_branch.
    checkRenameRefused(CONTROL.replace("float[3] x)", "float[3] $0x)"), "out", /enclosing or nested/);
  });
});
