#!/usr/bin/env python3
"""Writes the call-graph blow-up programs of bench/callgraph_blowup.sh into DIR:
dag/dag.c (18 functions, each calling the next twice: 2^18 paths), grid/grid.c (an 11x11 grid,
each cell calling the cell right and the cell below), complib/ (a synthetic compression library
of 15 files with about 1,900 accesses, each stage calling helpers of the next)."""
import os
import sys

out = sys.argv[1]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def dag(k=18):
    code = ["double a[4096];", f"void f{k}(int n) {{ for (int i = 0; i < n; i++) a[i] += 1.0; }}"]
    for i in range(k - 1, -1, -1):
        code.append(f"void f{i}(int n) {{ a[{i}] = 0; f{i + 1}(n); f{i + 1}(n - 1); }}")
    code.append("int main(void) { f0(16); return 0; }")
    write(f"{out}/dag/dag.c", "\n".join(code) + "\n")


def grid(n=11):
    code = ["double a[64][64];"]
    for r in range(n - 1, -1, -1):
        for c in range(n - 1, -1, -1):
            calls = ""
            if c + 1 < n:
                calls += f" g_{r}_{c + 1}(k);"
            if r + 1 < n:
                calls += f" g_{r + 1}_{c}(k);"
            code.append(f"void g_{r}_{c}(int k) {{ for (int i = 0; i < k; i++) a[{r}][i] += a[{c}][i];{calls} }}")
    code.append("int main(void) { g_0_0(4); return 0; }")
    write(f"{out}/grid/grid.c", "\n".join(code) + "\n")


def complib(files=15, functions=7, accesses_per_function=12):
    header = ["#include <stddef.h>", "#define WINDOW 4096"]
    for f in range(files):
        for g in range(functions):
            header.append(f"void stage{f}_{g}(unsigned char *in, unsigned char *out, int *table, int n);")
    write(f"{out}/complib/complib.h", "\n".join(header) + "\n")
    for f in range(files):
        code = ['#include "complib.h"']
        for g in range(functions):
            body = []
            for a in range(accesses_per_function // 4):
                body.append(f"    out[i + {a}] = in[i + {a}] ^ (unsigned char)table[(i + {a * 3}) & 255];")
                body.append(f"    table[{(g * 7 + a) % 256}] += in[{a}];")
            calls = ""
            if f + 1 < files:
                calls = f"  stage{f + 1}_{g}(out, in, table, n);\n  stage{f + 1}_{(g + 1) % functions}(in, out, table, n / 2);\n"
            code.append(f"void stage{f}_{g}(unsigned char *in, unsigned char *out, int *table, int n) {{\n"
                        f"  for (int i = 0; i < n; i++) {{\n" + "\n".join(body) + "\n  }\n" + calls + "}")
        write(f"{out}/complib/stage{f}.c", "\n".join(code) + "\n")
    main = ['#include <stdlib.h>', '#include "complib.h"', "int main(void) {",
            "  unsigned char *in = malloc(WINDOW), *out = malloc(WINDOW);", "  int *table = calloc(256, sizeof(int));"]
    for g in range(functions):
        main.append(f"  stage0_{g}(in, out, table, 64);")
    main += ["  free(in);", "  free(out);", "  free(table);", "  return 0;", "}"]
    write(f"{out}/complib/main.c", "\n".join(main) + "\n")


dag()
grid()
complib()
