"""Tests of scripts/profile_changes.py (the region `profile-changes`) with the
built lab: the profile names read off its --help, exact counts that a
profile's definition fixes, and a refused change shown with the lab's reason."""

from __future__ import annotations

import subprocess
import unittest

from support import REPO

import profile_changes

LAB = str(REPO / "build/release/lab/chbench-lab")


def lab_help() -> str:
    return subprocess.run([LAB, "move", "--help"], capture_output=True, text=True,
                          check=True).stdout


class ProfileChangesTest(unittest.TestCase):
    def test_profiles_from_help(self):
        names = profile_changes.profiles(lab_help())
        self.assertEqual(names[:3], ["ketama", "ketama_unweighted", "redis"])
        self.assertIn("maglev", names)
        self.assertNotIn("see", names)

    def test_ring_profile_moves_only_the_leaver(self):
        # A ring moves no key between two servers that stay.
        text = profile_changes.leave_cell(LAB, "cassandra")
        self.assertTrue(text.endswith("(0.00 % between stayers)"), text)
        moved = float(text.split(" %")[0])
        self.assertGreater(moved, 5)
        self.assertLess(moved, 15)

    def test_redis_ranges_move_between_stayers(self):
        # redis-cli's contiguous ranges over 9 masters instead of 10 shift most slots.
        text = profile_changes.leave_cell(LAB, "redis")
        self.assertTrue(text.startswith("50.00 %"), text)

    def test_refusal_and_dash(self):
        refused = profile_changes.cell(profile_changes.leave_cell, LAB, "kafka", "")
        self.assertTrue(refused.startswith("refused: "), refused)
        self.assertIn("partitions", refused)
        self.assertEqual(profile_changes.cell(profile_changes.weight_cell, LAB, "redis", "–"), "–")

    def test_weight_change_moves_keys_to_the_heavier_server(self):
        before = profile_changes.owners(LAB, "ketama", [1] * 10)
        after = profile_changes.owners(LAB, "ketama", [2] + [1] * 9)
        self.assertEqual(len(before), profile_changes.KEYS)
        gained = sum(a != b and b == profile_changes.SERVERS[0] for a, b in zip(before, after))
        self.assertGreater(gained, 0)


if __name__ == "__main__":
    unittest.main()
