#!/usr/bin/env python3
"""What ld.so's lazy binding touches under Valgrind, per C library function (docs/register-model.md,
"Lazy binding"). Reads Lackey traces (`valgrind --tool=lackey --trace-mem=yes`) of probe.c built
with and without libm and prints sim/lazy_binding_table.inc: for each function resolved after
main started, the data lines the resolution touches (ld.so's code and the function's ifunc
resolver, from the first ld.so instruction to the jump into the function), in the order of
their last touch, as offsets in the region each belongs to.

Usage: measure.py PROBE_WITH_LIBM LACKEY_LOG_WITH_LIBM PROBE_WITHOUT_LIBM LACKEY_LOG_WITHOUT_LIBM
"""
import re
import subprocess
import sys

MAIN_BASE = 0x108000           # a PIE's load address under Valgrind
LDSO = (0x4000000, 0x4040000)  # ld.so's text and data under Valgrind
LIBM = (0x4847000, 0x4927000)  # libm, when the program links it; rtld's allocations and vgpreload_core below
STACK_FLOOR = 0x1f00000000
stack_pointers = {}  # function -> the stack pointer before its call, of the last resolutions()
REGIONS = ("Stack", "Main", "LdSo", "Libm", "Libc")


def run(*command):
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def got_slots(binary):
    """GOT slot address under Valgrind -> the function it binds."""
    slots = {}
    for line in run("objdump", "-R", binary).splitlines():
        m = re.match(r"([0-9a-f]+)\s+R_X86_64_JUMP_SLOT\s+(\w+)", line)
        if m:
            slots[MAIN_BASE + int(m.group(1), 16)] = m.group(2)
    return slots


def main_address(binary):
    return MAIN_BASE + next(int(l.split()[0], 16) for l in run("nm", binary).splitlines() if l.endswith(" T main"))


def libc_base(binary):
    """Where Valgrind maps libc for this binary: after libm when it is linked."""
    return LIBM[1] if "libm.so" in run("ldd", binary) else LIBM[0]


def region(address, libc, sp):
    if address >= STACK_FLOOR:
        return "Stack", address - (sp & ~63)  # the xsave area is 64-byte aligned below the stack pointer
    if address < LDSO[0]:
        return "Main", address - MAIN_BASE
    if address < LIBM[0]:
        return "LdSo", address - LDSO[0]  # ld.so, the link maps it allocates and the preload
    if libc != LIBM[0] and address < LIBM[1]:
        return "Libm", address - LIBM[0]
    return "Libc", address - libc


def accesses(log):
    for line in open(log):
        if line.startswith("=="):
            continue
        kind = line[:2].strip()
        try:
            text, size = line[3:].split(",")
            yield kind, int(text, 16), int(size)
        except ValueError:
            continue


def resolutions(binary, log):
    """{function: [(region, line offset, first access writes, reads, writes)]}, lines in last-touch order."""
    slots, start, libc = got_slots(binary), main_address(binary), libc_base(binary)
    started = in_ldso = in_main = False
    stack_stores = []  # the main image's last stack stores: the call's return address is the highest
    event, table = None, {}
    stack_pointers.clear()
    for kind, address, size in accesses(log):
        if kind == "I":
            started = started or address == start
            in_ldso = LDSO[0] <= address < LDSO[1]
            in_main = address < LDSO[0]
            if started and in_ldso and event is None:
                event = {"sp": max(stack_stores) + 8, "lines": {}, "symbol": None}
            elif event is not None and not in_ldso and (event["symbol"] or in_main):
                # Past the GOT write, the first instruction outside ld.so is the function itself;
                # before it, one in the main image ends a call of ld.so that bound nothing.
                if event["symbol"] and event["symbol"] not in table:
                    stack_pointers[event["symbol"]] = event["sp"]
                    table[event["symbol"]] = [
                        region(ln << 6, libc, event["sp"]) + (d["first_write"], d["reads"], d["writes"])
                        for ln, d in event["lines"].items()]
                event = None
            continue
        if in_main and kind != "L" and address >= STACK_FLOOR:
            stack_stores = (stack_stores + [address])[-3:]
        if event is None:
            continue
        if kind != "L" and address in slots and in_ldso:
            event["symbol"] = slots[address]
        for ln in range(address >> 6, ((address + size - 1) >> 6) + 1):
            d = event["lines"].pop(ln, {"first_write": kind != "L", "reads": 0, "writes": 0})
            d["writes" if kind != "L" else "reads"] += 1  # a modify counts as a write, as Cachegrind counts it
            event["lines"][ln] = d  # re-inserted: dict order is the order of last touch
    return table


def camel(symbol):
    return "".join(part.capitalize() for part in symbol.split("_"))


def main(argv):
    if len(argv) != 5:
        sys.exit(__doc__)
    with_libm, without_libm = resolutions(argv[1], argv[2]), resolutions(argv[3], argv[4])
    print("// Generated by bench/lazy_binding/measure.sh (Valgrind %s, %s): do not edit." % (
        run("valgrind", "--version").strip(), run("ldd", "--version").splitlines()[0]))
    print("// Per function: {region, byte offset of the line in it, first access writes (0/1), reads, writes},")
    print("// in the order of the lines' last touch (sim/lazy_binding.cpp).")
    for variant, table in (("Libm", with_libm), ("NoLibm", without_libm)):
        for symbol in sorted(table):
            print("constexpr LoaderLine k%s%s[] = {" % (variant, camel(symbol)))
            rows = ["{%s, %d, %d, %d, %d}" % (r, offset, first_write, reads, writes)
                    for r, offset, first_write, reads, writes in table[symbol]]
            for i in range(0, len(rows), 4):
                print("    " + ", ".join(rows[i:i + 4]) + ",")
            print("};")
    for variant, table in (("Libm", with_libm), ("NoLibm", without_libm)):
        print("constexpr Resolution k%sResolutions[] = {" % variant)
        for symbol in sorted(table):
            print('    {"%s", k%s%s},' % (symbol, variant, camel(symbol)))
        print("};")

if __name__ == "__main__":
    main(sys.argv)
