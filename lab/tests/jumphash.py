"""Jump hash, Lamping and Veach, "A Fast, Minimal Memory, Consistent Hash
Algorithm", figure 1, written apart from the lab: the expected owners of the
command-line tests (cli_buckets_test.sh, cli_scenarios_test.sh). Python's
float is the same IEEE double as the paper's C++."""


def jump(key: int, n: int) -> int:
    """The bucket 0 ... n-1 of a 64-bit key hash among n >= 1 buckets."""
    b, j = -1, 0
    while j < n:
        b = j
        key = (key * 2862933555777941757 + 1) % 2**64
        j = int(float(b + 1) * (float(1 << 31) / float((key >> 33) + 1)))
    return b
