"""Tests of scripts/machine-name.sh: the folder names and JSON identities of
captured and written /proc/cpuinfo texts (fixtures/cpuinfo/, see its
README.md), its tables, texts it cannot place, and bad input."""

from __future__ import annotations

import json
import re
import tempfile
import unittest
from pathlib import Path

from support import SCRIPTS, TESTS, machine_name, run

from cpu_identity import IDENTITY_FLAGS  # noqa: E402  (support puts scripts/ on sys.path)

SCRIPT = str(SCRIPTS / "machine-name.sh")
CPUINFO = TESTS / "fixtures" / "cpuinfo"
ZEN5 = CPUINFO / "amd-epyc-zen5-2c.txt"
ZEN3 = CPUINFO / "amd-epyc-zen3-2c.txt"
NEOVERSE_N1 = CPUINFO / "arm-neoverse-n1-4c.txt"
ICELAKE_VM = CPUINFO / "intel-xeon-icelake-vm-2c.txt"
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*-[0-9]+c$")


def machine(*args: str) -> str:
    """The name machine-name.sh prints (it must succeed, silently)."""
    result = run(["bash", SCRIPT, *args])
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return result.stdout.strip()


def identity(*args: str) -> dict:
    """The --json identity, which must be one line of JSON."""
    out = machine("--json", *args)
    assert "\n" not in out, out
    return json.loads(out)


def x86_text(vendor: str, family: int, model: int, flags: str, stepping: int = 0,
             name: str = "Some CPU") -> str:
    return (f"processor\t: 0\nvendor_id\t: {vendor}\ncpu family\t: {family}\nmodel\t\t: {model}\n"
            f"model name\t: {name}\nstepping\t: {stepping}\nflags\t\t: {flags}\n\n")


def arm_text(implementer: str, part: str, features: str = "fp asimd", cpus: int = 1) -> str:
    return "".join(f"processor\t: {i}\nFeatures\t: {features}\nCPU implementer\t: {implementer}\n"
                   f"CPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: {part}\n"
                   "CPU revision\t: 1\n\n" for i in range(cpus))


class Fixtures(unittest.TestCase):
    """The four fixture CPUs: exact names, and the identity in the JSON."""

    def test_names(self):
        self.assertEqual(machine("--cpuinfo", str(ZEN5)), "amd-epyc-zen5-avx512-2c")
        self.assertEqual(machine("--cpuinfo", str(ZEN3)), "amd-epyc-zen3-avx2-2c")
        self.assertEqual(machine("--cpuinfo", str(NEOVERSE_N1)), "arm-neoverse-n1-neon-4c")
        self.assertEqual(machine("--cpuinfo", str(ICELAKE_VM)), "intel-xeon-icelake-sp-avx512-2c")

    def test_zen3_and_zen5_differ(self):
        # Both are "AMD EPYC" with 2 CPUs: the old name (model name and CPU
        # count) was amd-epyc-2c for both.
        for text in (ZEN3, ZEN5):
            self.assertIn("model name\t: AMD EPYC\n", text.read_text())
        self.assertNotEqual(machine("--cpuinfo", str(ZEN3)), machine("--cpuinfo", str(ZEN5)))

    def test_zen5_json(self):
        cpu = identity("--cpuinfo", str(ZEN5), "--sysfs-cache", str(ZEN5.with_suffix(".cache")))
        self.assertEqual(
            {k: cpu[k] for k in ("name", "arch", "vendor", "family", "model", "stepping",
                                 "microarchitecture", "model_name", "isa", "vector_bits", "cpus",
                                 "implementer", "part", "midr", "parts")},
            {"name": "amd-epyc-zen5-avx512-2c", "arch": "x86", "vendor": "AuthenticAMD",
             "family": 26, "model": 2, "stepping": 1, "microarchitecture": "zen5",
             "model_name": "AMD EPYC", "isa": "avx512", "vector_bits": 512, "cpus": 2,
             "implementer": None, "part": None, "midr": None, "parts": None})
        for flag in ("avx2", "avx512f", "avx512bw", "avx512vl", "avx512_vp2intersect", "avx_vnni"):
            self.assertIn(flag, cpu["flags"])
        self.assertNotIn("fpu", cpu["flags"])  # only the flags that matter
        self.assertEqual(cpu["caches"], {"l1d": 48 << 10, "l1i": 32 << 10, "l2": 1 << 20,
                                         "l3": 32 << 20})
        self.assertEqual(cpu["source"], str(ZEN5))

    def test_zen3_json(self):
        cpu = identity("--cpuinfo", str(ZEN3), "--sysfs-cache", str(ZEN3.with_suffix(".cache")))
        self.assertEqual((cpu["family"], cpu["model"], cpu["microarchitecture"], cpu["isa"]),
                         (25, 1, "zen3", "avx2"))
        self.assertIn("avx2", cpu["flags"])
        self.assertFalse([f for f in cpu["flags"] if f.startswith("avx512")], cpu["flags"])
        self.assertEqual(cpu["caches"], {"l1d": 32 << 10, "l1i": 32 << 10, "l2": 512 << 10,
                                         "l3": 32 << 20})

    def test_neoverse_n1_json(self):
        self.assertNotIn("model name", NEOVERSE_N1.read_text())
        cpu = identity("--cpuinfo", str(NEOVERSE_N1))
        self.assertEqual(
            {k: cpu[k] for k in ("arch", "vendor", "family", "implementer", "part", "variant",
                                 "revision", "midr", "parts", "model_name", "isa", "vector_bits",
                                 "cpus", "caches")},
            {"arch": "arm", "vendor": None, "family": None, "implementer": "0x41",
             "part": "0xd0c", "variant": "0x3", "revision": 1, "midr": "0x413fd0c1",
             "parts": ["0xd0c"], "model_name": None, "isa": "neon", "vector_bits": 128,
             "cpus": 4, "caches": {}})  # no --sysfs-cache: caches unknown, not this machine's
        self.assertIn("Graviton2", cpu["known_as"])
        self.assertIn("asimd", cpu["flags"])
        self.assertNotIn("sve", cpu["flags"])

    def test_icelake_vm_json(self):
        cpu = identity("--cpuinfo", str(ICELAKE_VM))
        self.assertEqual((cpu["vendor"], cpu["family"], cpu["model"], cpu["stepping"],
                          cpu["microarchitecture"], cpu["model_name"], cpu["isa"]),
                         ("GenuineIntel", 6, 134, 0, "icelake-sp",
                          "Intel Xeon Processor (Icelake)", "avx512"))

    def test_json_name_is_the_name(self):
        for text in (ZEN5, ZEN3, NEOVERSE_N1, ICELAKE_VM):
            self.assertEqual(identity("--cpuinfo", str(text))["name"],
                             machine("--cpuinfo", str(text)))

    def test_cpu_count(self):
        self.assertEqual(machine("--cpuinfo", str(ZEN3), "--cpus", "64"), "amd-epyc-zen3-avx2-64c")
        self.assertEqual(identity("--cpuinfo", str(NEOVERSE_N1), "--cpus=16")["cpus"], 16)

    def test_flag_list_is_cpu_identity_list(self):
        # index.py and compare.py compare the flags of cpu_identity.IDENTITY_FLAGS.
        text = Path(SCRIPT).read_text()
        listed = text.split('matter="', 1)[1].split('"', 1)[0].split()
        self.assertEqual(listed, IDENTITY_FLAGS)


class Tables(unittest.TestCase):
    """Microarchitecture and part tables, SIMD levels, and their fallbacks."""

    def name_of(self, text: str, *args: str) -> str:
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            f.write(text)
            f.flush()
            return machine("--cpuinfo", f.name, *args)

    def test_amd_model_ranges(self):
        # Linux's bsp_init_amd(): the ranges' edges and the models of real parts.
        cases = {(23, 0x01): "zen", (23, 0x08): "zen", (23, 0x31): "zen2", (23, 0x71): "zen2",
                 (23, 0xa0): "zen2", (25, 0x01): "zen3", (25, 0x0f): "zen3", (25, 0x21): "zen3",
                 (25, 0x44): "zen3", (25, 0x10): "zen4", (25, 0x11): "zen4", (25, 0x61): "zen4",
                 (25, 0xa0): "zen4", (26, 0x02): "zen5", (26, 0x44): "zen5", (26, 0x70): "zen5",
                 (26, 0x50): "zen6"}
        for (family, model), uarch in cases.items():
            with self.subTest(family=family, model=model):
                self.assertEqual(self.name_of(x86_text("AuthenticAMD", family, model, "avx2",
                                                       name="AMD EPYC 7B13")),
                                 f"amd-epyc-{uarch}-avx2-1c")

    def test_intel_models(self):
        cases = {(85, 4): "skylake-sp", (85, 7): "cascadelake", (85, 11): "cooperlake",
                 (106, 6): "icelake-sp", (143, 8): "sapphirerapids", (207, 2): "emeraldrapids",
                 (173, 1): "graniterapids"}
        xeon = "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz"
        for (model, stepping), uarch in cases.items():
            with self.subTest(model=model):
                self.assertEqual(self.name_of(x86_text("GenuineIntel", 6, model,
                                                       "sse4_2 avx2 avx512f", stepping, xeon)),
                                 f"intel-xeon-{uarch}-avx512-1c")
        # Model 134 without AVX-512 is the Snow Ridge Atom it really is.
        self.assertEqual(self.name_of(x86_text("GenuineIntel", 6, 134, "sse4_2", name="Atom")),
                         "intel-atom-tremont-d-sse4-1c")

    def test_unknown_x86(self):
        self.assertEqual(self.name_of(x86_text("AuthenticAMD", 27, 3, "avx2 avx512f",
                                               name="AMD EPYC 9999")),
                         "amd-epyc-fam27-m3-avx512-1c")
        self.assertEqual(self.name_of(x86_text("GenuineIntel", 19, 1, "sse2")),
                         "intel-fam19-m1-sse2-1c")

    def test_arm_parts_and_sve(self):
        self.assertEqual(self.name_of(arm_text("0x41", "0xd40", "fp asimd sve")),
                         "arm-neoverse-v1-sve-256-1c")
        self.assertEqual(self.name_of(arm_text("0x41", "0xd4f", "fp asimd sve sve2"), "--cpus",
                                      "64"), "arm-neoverse-v2-sve2-128-64c")
        self.assertEqual(self.name_of(arm_text("0x41", "0xd49", "fp asimd sve sve2")),
                         "arm-neoverse-n2-sve2-128-1c")
        self.assertEqual(self.name_of(arm_text("0x61", "0x023", cpus=8)), "apple-m1-neon-8c")
        self.assertEqual(self.name_of(arm_text("0x41", "0xd99", "fp asimd sve2")),
                         "arm-0x41-0xd99-sve2-1c")  # unknown part, unknown width
        self.assertEqual(self.name_of(arm_text("0x99", "0x001")), "arm-0x99-0x001-neon-1c")

    def test_texts_it_cannot_place(self):
        riscv = "processor\t: 0\nhart\t\t: 0\nisa\t\t: rv64imafdc\nuarch\t\t: sifive,u74-mc\n\n" \
                "processor\t: 1\nhart\t\t: 1\n"
        self.assertEqual(self.name_of(riscv), "sifive-u74-mc-2c")
        power = "processor\t: 0\ncpu\t\t: POWER9 (architected), altivec supported\n"
        self.assertEqual(self.name_of(power), "power9-1c")
        self.assertEqual(self.name_of("just some words\n"), "unknown-cpu-1c")
        self.assertEqual(self.name_of("vendor_id\t: GenuineIntel\n"), "genuineintel-1c")
        with tempfile.NamedTemporaryFile("wb") as f:
            f.write(bytes(range(256)) * 16)
            f.flush()
            self.assertTrue(SLUG.match(machine("--cpuinfo", f.name)))
            json.loads(machine("--cpuinfo", f.name, "--json"))

    def test_hostile_values_stay_text(self):
        # Field values never reach shell arithmetic or the JSON unescaped.
        with tempfile.TemporaryDirectory() as tmp:
            marker = Path(tmp) / "ran"
            text = x86_text("GenuineIntel", 6, 0, "sse4_2", name='x"y\\z') \
                .replace("model\t\t: 0", f"model\t\t: $(touch {marker})") \
                + f"CPU part\t: a[$(touch {marker})]\n"
            path = Path(tmp) / "cpuinfo"
            path.write_text(text)
            cpu = identity("--cpuinfo", str(path))
            self.assertFalse(marker.exists())
        self.assertEqual((cpu["model"], cpu["model_name"], cpu["name"]),
                         (None, 'x"y\\z', "intel-fam6-mx-sse4-1c"))


class ThisMachine(unittest.TestCase):
    """Without --cpuinfo: this machine, as run.sh names its folder."""

    def test_name_and_json(self):
        name = machine_name()
        self.assertRegex(name, SLUG)
        cpu = identity()
        self.assertEqual(cpu["name"], name)
        self.assertEqual(cpu["source"], "/proc/cpuinfo")
        self.assertTrue(cpu["caches"], "this machine's caches, from sysfs, lscpu or getconf")

    def test_help(self):
        result = run(["bash", SCRIPT, "--help"])
        self.assertEqual(result.returncode, 0)
        self.assertTrue(result.stdout.startswith("Prints the folder name"), result.stdout)
        self.assertIn("--cpuinfo FILE", result.stdout)


if __name__ == "__main__":
    unittest.main()
