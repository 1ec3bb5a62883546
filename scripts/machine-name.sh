#!/usr/bin/env bash
# Prints the folder name results/<machine>/ that scripts/run.sh uses, made from
# what the CPU says about itself rather than its marketing name (cloud and VM
# CPUs often carry generic ones: "AMD EPYC" for a Zen 3 and a Zen 5 alike,
# "Intel Xeon Processor (Icelake)", or none at all on Arm):
#
#   x86:   <vendor>[-<line>]-<microarchitecture>-<isa>-<cpus>c
#          the vendor and the family, model and stepping of /proc/cpuinfo, named
#          by the tables below (zen3, zen5, icelake-sp, ...; "fam<F>-m<M>" for
#          one they do not know), the product line from the model name where it
#          names one (epyc, xeon, ...): amd-epyc-zen5-avx512-2c
#   Arm:   <implementer>-<part>-<isa>-<cpus>c from "CPU implementer" and
#          "CPU part": arm-neoverse-n1-neon-4c ("arm-<impl>-<part>" for a pair
#          the table does not know)
#   other: the first descriptive cpuinfo field, slugged, and the CPU count
#
# <isa> is the level that decides the SIMD target: avx512 (avx512f), avx2,
# sse4 (sse4_2) or sse2 on x86; sve2 or sve (with the vector width in bits
# where known: sve-256, sve2-128) or neon on Arm.
#
# Usage: bash scripts/machine-name.sh [--json] [--cpuinfo FILE [--cpus N]
#                                     [--sysfs-cache DIR]]
#   --json         print the full identity as one line of JSON instead: name,
#                  arch, vendor, family, model, stepping, microarchitecture,
#                  implementer, part, variant, revision, midr, parts (every
#                  distinct Arm part: big.LITTLE machines list two), known_as,
#                  model_name, isa, vector_bits, flags (those that decide or
#                  change the SIMD code), caches (bytes: l1d, l1i, l2, l3),
#                  cpus, source; null where unknown. The bench records it as
#                  the context key chbench_cpu (scripts/run.sh adds it).
#   --cpuinfo FILE read a captured /proc/cpuinfo text instead of this machine's
#                  (the tests' hook); the CPU count is then the number of
#                  processors it lists, and no cache sizes are read unless
#   --sysfs-cache DIR  names a folder laid out as
#                  /sys/devices/system/cpu/cpu0/cache (index*/level, type, size)
#   --cpus N       the CPU count to name (1 to 999999)
# Without --cpuinfo: this machine's /proc/cpuinfo, online CPU count, caches
# (sysfs, else lscpu, else getconf: the C library's reading of CPUID, for a
# virtual machine that exposes neither) and, on Arm, MIDR and SVE vector length.
#
# Exit status: 0; 2 with one line on stderr for bad input (an unknown option,
# an unreadable or empty cpuinfo file, a bad count or cache folder).
set -euo pipefail

PROG=machine-name.sh

die() {
  echo "$PROG: error: $1" >&2
  exit 2
}

usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

# ---- Command line.
json=0
cpuinfo=""
cpus=""
cache_dir=""
while (($# > 0)); do
  case $1 in
    --json) json=1 ;;
    --cpuinfo | --cpus | --sysfs-cache)
      (($# >= 2)) || die "$1 needs a value (see --help)"
      case $1 in
        --cpuinfo) cpuinfo=$2 ;;
        --cpus) cpus=$2 ;;
        --sysfs-cache) cache_dir=$2 ;;
      esac
      shift
      ;;
    --cpuinfo=*) cpuinfo=${1#*=} ;;
    --cpus=*) cpus=${1#*=} ;;
    --sysfs-cache=*) cache_dir=${1#*=} ;;
    -h | --help)
      usage
      exit 0
      ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) die "takes no positional arguments (got '$1'); --cpuinfo FILE reads a cpuinfo text" ;;
  esac
  shift
done
live=1
if [[ -n $cpuinfo ]]; then
  live=0
  [[ ! -d $cpuinfo ]] || die "cpuinfo '$cpuinfo' is a folder, not a /proc/cpuinfo text"
  [[ -r $cpuinfo ]] || die "cannot read cpuinfo '$cpuinfo'"
  grep -q '[^[:space:]]' -- "$cpuinfo" 2>/dev/null ||
    die "cpuinfo '$cpuinfo' is empty: it describes no CPU"
elif [[ -n $cache_dir ]]; then
  die "--sysfs-cache goes with --cpuinfo (this machine's caches are read from sysfs)"
fi
if [[ -n $cpus && ! $cpus =~ ^[1-9][0-9]{0,5}$ ]]; then
  die "CPU count '$cpus' is not a number from 1 to 999999"
fi
if [[ -n $cache_dir && ! -d $cache_dir ]]; then
  die "--sysfs-cache '$cache_dir' is not a folder (one like /sys/devices/system/cpu/cpu0/cache)"
fi

# ---- The cpuinfo fields, from the first CPU that lists each (key<TAB>value
# lines; control characters dropped), the processor count and the distinct
# Arm parts (big.LITTLE machines list several).
read_cpuinfo() {
  awk '
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
    /^processor[ \t]*:/ || /^processor [0-9]+:/ { n++ }
    {
      colon = index($0, ":")
      if (colon == 0) next
      key = trim(substr($0, 1, colon - 1))
      value = trim(substr($0, colon + 1))
      gsub(/[\001-\037\177]/, " ", value)
      if (key == "CPU part" && !(value in parts)) {
        parts[value] = 1
        partlist = partlist " " value
      }
      if (key in seen) next
      seen[key] = 1
      if (key ~ /^(vendor_id|cpu family|model|model name|stepping|flags|Features)$/ ||
          key ~ /^(CPU implementer|CPU variant|CPU part|CPU revision)$/ ||
          key ~ /^(uarch|isa|cpu|Processor|Hardware)$/)
        printf "%s\t%s\n", key, value
    }
    END { printf "processors\t%d\n", n; printf "parts\t%s\n", trim(partlist) }
  ' "$1"
}

declare -A field=()
source_file=${cpuinfo:-/proc/cpuinfo}
if [[ -r $source_file ]]; then
  while IFS=$'\t' read -r key value; do
    field[$key]=$value
  done < <(read_cpuinfo "$source_file")
fi
get() { printf '%s' "${field[$1]:-}"; }

# Lowercase; drop trademarks and the clock; every run of characters outside
# [a-z0-9] becomes one "-"; at most 40 characters, cut at a dash.
slug() {
  local s
  s=$(printf '%s' "$1" | tr '[:upper:]' '[:lower:]' | sed -E \
    -e 's/\((r|tm|c)\)//g' -e 's/@.*$//' -e 's/[^a-z0-9]+/-/g' -e 's/^-+//; s/-+$//')
  if ((${#s} > 40)); then
    s=${s:0:40}
    s=${s%-*}
  fi
  printf '%s' "$s"
}

has_flag() { [[ " $flags " == *" $1 "* ]]; }

# ---- Tables.
# AMD: the Zen generation of a family and model, as Linux's bsp_init_amd()
# (arch/x86/kernel/cpu/amd.c) sets X86_FEATURE_ZEN1..ZEN6: family 0x17:
# 0x00-0x2f, 0x50-0x5f Zen (and Zen+); 0x30-0x4f, 0x60-0x7f, 0x90-0x91,
# 0xa0-0xaf Zen 2. Family 0x19: 0x00-0x0f, 0x20-0x5f Zen 3 (Milan is model
# 0x01); 0x10-0x1f, 0x60-0xaf Zen 4 (Genoa 0x11). Family 0x1a: 0x00-0x2f,
# 0x40-0x4f, 0x60-0x7f Zen 5 (Turin 0x02); 0x50-0x5f, 0x80-0xaf, 0xc0-0xcf Zen 6.
amd_uarch() {
  local f=$1 m=$2
  case $f in
    23) if ((m <= 0x2f || (m >= 0x50 && m <= 0x5f))); then echo zen
    elif (((m >= 0x30 && m <= 0x4f) || (m >= 0x60 && m <= 0x7f) || m == 0x90 || m == 0x91 ||
      (m >= 0xa0 && m <= 0xaf))); then echo zen2; fi ;;
    24) echo dhyana ;; # Hygon's Zen-based family 0x18
    25) if ((m <= 0x0f || (m >= 0x20 && m <= 0x5f))); then echo zen3
    elif (((m >= 0x10 && m <= 0x1f) || (m >= 0x60 && m <= 0xaf))); then echo zen4; fi ;;
    26) if ((m <= 0x2f || (m >= 0x40 && m <= 0x4f) || (m >= 0x60 && m <= 0x7f))); then echo zen5
    elif (((m >= 0x50 && m <= 0x5f) || (m >= 0x80 && m <= 0xaf) || (m >= 0xc0 && m <= 0xcf)))
    then echo zen6; fi ;;
  esac
}

# Intel family 6 models, as Linux's arch/x86/include/asm/intel-family.h names
# them. Model 0x55 is Skylake-SP up to stepping 4, Cascade Lake at 5 to 7,
# Cooper Lake from 8 (QEMU's Skylake-Server, Cascadelake-Server and Cooperlake
# CPU models use steppings 4, 6 and 10). QEMU's Icelake-Server CPU model
# ("Intel Xeon Processor (Icelake)") reports model 134 (0x86), which on real
# hardware is the Snow Ridge Atom (Tremont-D, no AVX-512): with AVX-512 it is
# taken for the Ice Lake server it imitates.
intel_uarch() {
  local f=$1 m=$2 s=$3
  ((f == 6)) || return 0
  case $m in
    63) echo haswell-x ;;                                  # 0x3f
    79 | 86) echo broadwell-x ;;                           # 0x4f, 0x56
    85) if ((s <= 4)); then echo skylake-sp             # 0x55
    elif ((s <= 7)); then echo cascadelake; else echo cooperlake; fi ;;
    106 | 108) echo icelake-sp ;;                          # 0x6a ICELAKE_X, 0x6c ICELAKE_D
    134) if has_flag avx512f; then echo icelake-sp; else echo tremont-d; fi ;; # 0x86
    143) echo sapphirerapids ;;                            # 0x8f
    207) echo emeraldrapids ;;                             # 0xcf
    173 | 174) echo graniterapids ;;                       # 0xad, 0xae
    175) echo sierraforest ;;                              # 0xaf
    78 | 94) echo skylake ;;                               # 0x4e, 0x5e
    142 | 158) echo kabylake ;;                            # 0x8e, 0x9e (and Coffee Lake)
    165 | 166) echo cometlake ;;                           # 0xa5, 0xa6
    125 | 126) echo icelake ;;                             # 0x7d, 0x7e
    140 | 141) echo tigerlake ;;                           # 0x8c, 0x8d
    167) echo rocketlake ;;                                # 0xa7
    151 | 154) echo alderlake ;;                           # 0x97, 0x9a
    183 | 186 | 191) echo raptorlake ;;                    # 0xb7, 0xba, 0xbf
    170 | 172) echo meteorlake ;;                          # 0xaa, 0xac
    189) echo lunarlake ;;                                 # 0xbd
    197 | 198) echo arrowlake ;;                           # 0xc5, 0xc6
  esac
}

# Arm implementers and parts (Linux's arch/arm64/include/asm/cputype.h), as
# "<name>|<also sold as>|<SVE vector bits>". The SVE width is the core's
# (Neoverse V1: 256 bits; the Armv9 cores: 128; A64FX: 512).
arm_implementer() {
  case $1 in
    0x41) echo arm ;; 0x42) echo broadcom ;; 0x43) echo cavium ;; 0x46) echo fujitsu ;;
    0x48) echo hisilicon ;; 0x4e) echo nvidia ;; 0x50) echo apm ;; 0x51) echo qualcomm ;;
    0x61) echo apple ;; 0x6d) echo microsoft ;; 0xc0) echo ampere ;;
  esac
}
arm_part() {
  case $1:$2 in
    0x41:0xd03) echo "cortex-a53||" ;;
    0x41:0xd04) echo "cortex-a35||" ;;
    0x41:0xd05) echo "cortex-a55||" ;;
    0x41:0xd07) echo "cortex-a57||" ;;
    0x41:0xd08) echo "cortex-a72|AWS Graviton (first generation)|" ;;
    0x41:0xd09) echo "cortex-a73||" ;;
    0x41:0xd0a) echo "cortex-a75||" ;;
    0x41:0xd0b) echo "cortex-a76||" ;;
    0x41:0xd0c) echo "neoverse-n1|AWS Graviton2, Ampere Altra|" ;;
    0x41:0xd0d) echo "cortex-a77||" ;;
    0x41:0xd40) echo "neoverse-v1|AWS Graviton3|256" ;;
    0x41:0xd41) echo "cortex-a78||" ;;
    0x41:0xd44) echo "cortex-x1||" ;;
    0x41:0xd46) echo "cortex-a510||128" ;;
    0x41:0xd47) echo "cortex-a710||128" ;;
    0x41:0xd48) echo "cortex-x2||128" ;;
    0x41:0xd49) echo "neoverse-n2||128" ;;
    0x41:0xd4a) echo "neoverse-e1||" ;;
    0x41:0xd4b) echo "cortex-a78c||" ;;
    0x41:0xd4d) echo "cortex-a715||128" ;;
    0x41:0xd4e) echo "cortex-x3||128" ;;
    0x41:0xd4f) echo "neoverse-v2|AWS Graviton4, NVIDIA Grace, Google Axion|128" ;;
    0x41:0xd80) echo "cortex-a520||128" ;;
    0x41:0xd81) echo "cortex-a720||128" ;;
    0x41:0xd82) echo "cortex-x4||128" ;;
    0x41:0xd84) echo "neoverse-v3||128" ;;
    0x41:0xd8e) echo "neoverse-n3||128" ;;
    0x43:0x0af) echo "thunderx2||" ;;
    0x46:0x001) echo "a64fx||512" ;;
    0x48:0xd01) echo "tsv110|HiSilicon Kunpeng 920|" ;;
    0x4e:0x003) echo "denver||" ;;
    0x4e:0x004) echo "carmel||" ;;
    0x51:0x001) echo "oryon||" ;;
    0x61:0x022 | 0x61:0x023) echo "m1||" ;;
    0x61:0x024 | 0x61:0x025) echo "m1-pro||" ;;
    0x61:0x028 | 0x61:0x029) echo "m1-max||" ;;
    0x61:0x032 | 0x61:0x033) echo "m2||" ;;
    0x61:0x034 | 0x61:0x035) echo "m2-pro||" ;;
    0x61:0x038 | 0x61:0x039) echo "m2-max||" ;;
    0x6d:0xd49) echo "cobalt-100|Microsoft Azure Cobalt 100 (Neoverse N2)|128" ;;
    0xc0:0xac3) echo "ampere1|AmpereOne|" ;;
    0xc0:0xac4) echo "ampere1a|AmpereOne|" ;;
  esac
}

# A hexadecimal cpuinfo or sysfs value ("0x41", "0xd0c", MIDR_EL1's
# "0x00000000413fd0c1") with at least the given number of digits, or "" when it
# is not one (nothing unchecked reaches arithmetic).
hex() {
  local v=${1,,}
  [[ $v =~ ^0x[0-9a-f]{1,16}$ ]] || return 0
  printf "0x%0${2}x" "$((v))"
}
decimal() {
  [[ $1 =~ ^[0-9]{1,6}$ ]] && printf '%d' "$((10#$1))"
  return 0
}

# ---- The identity.
arch=unknown vendor="" family="" model="" stepping="" uarch="" implementer="" part=""
variant="" revision="" midr="" known_as="" isa="" vector_bits="" name_core=""
part_list="" parts_json=null
model_name=$(get "model name")
if [[ -n $(get vendor_id) && -n $(get "cpu family") && -n $(get flags) ]]; then
  arch=x86
  vendor=$(get vendor_id)
  flags=$(get flags)
  family=$(decimal "$(get "cpu family")")
  model=$(decimal "$(get model)")
  stepping=$(decimal "$(get stepping)")
  case $vendor in
    AuthenticAMD) vendor_slug=amd ;;
    GenuineIntel) vendor_slug=intel ;;
    HygonGenuine) vendor_slug=hygon ;;
    CentaurHauls | "  Shanghai  " | Shanghai) vendor_slug=zhaoxin ;;
    *) vendor_slug=$(slug "$vendor") ;;
  esac
  if [[ -n $family && -n $model ]]; then
    case $vendor_slug in
      amd | hygon) uarch=$(amd_uarch "$family" "$model") ;;
      intel) uarch=$(intel_uarch "$family" "$model" "${stepping:-0}") ;;
    esac
  fi
  if has_flag avx512f; then isa=avx512 vector_bits=512
  elif has_flag avx2; then isa=avx2 vector_bits=256
  elif has_flag sse4_2; then isa=sse4 vector_bits=128
  else isa=sse2 vector_bits=128; fi
  line=""
  for word in epyc ryzen threadripper opteron xeon core pentium celeron atom; do
    if [[ " $(slug "$model_name" | tr '-' ' ') " == *" $word "* ]]; then
      line=$word
      break
    fi
  done
  name_core=$vendor_slug${line:+-$line}-${uarch:-fam${family:-x}-m${model:-x}}
elif [[ -n $(get "CPU implementer") && -n $(get "CPU part") ]]; then
  arch=arm
  flags=$(get Features)
  implementer=$(hex "$(get "CPU implementer")" 2)
  part=$(hex "$(get "CPU part")" 3)
  variant=$(hex "$(get "CPU variant")" 1)
  revision=$(decimal "$(get "CPU revision")")
  read -r -a listed <<<"$(get parts)"
  for p in "${listed[@]}"; do
    p=$(hex "$p" 3)
    [[ -z $p ]] || part_list+="${part_list:+, }\"$p\""
  done
  parts_json="[$part_list]"
  entry=$(arm_part "$implementer" "$part")
  impl_name=$(arm_implementer "$implementer")
  sve_bits=""
  if [[ -n $entry && -n $impl_name ]]; then
    IFS='|' read -r part_name known_as sve_bits <<<"$entry"
    name_core=$impl_name-$part_name
  else
    name_core=arm-${implementer:-x}-${part:-x}
  fi
  if [[ -n $implementer && -n $part && -n $variant && -n $revision ]]; then
    midr=$(printf '0x%08x' $((implementer << 24 | variant << 20 | 0xf << 16 | part << 4 |
      (revision & 0xf))))
  fi
  if ((live)); then
    if [[ -r /sys/devices/system/cpu/cpu0/regs/identification/midr_el1 ]]; then
      raw=$(hex "$(cat /sys/devices/system/cpu/cpu0/regs/identification/midr_el1)" 8)
      midr=${raw:-$midr}
    fi
    vl=$(cat /proc/sys/abi/sve_default_vector_length 2>/dev/null || true)
    [[ ! $vl =~ ^[0-9]{1,4}$ ]] || sve_bits=$((vl * 8))
  fi
  if has_flag sve2; then isa=sve2 vector_bits=$sve_bits
  elif has_flag sve; then isa=sve vector_bits=$sve_bits
  elif has_flag asimd || has_flag neon; then isa=neon vector_bits=128
  else isa=scalar; fi
  [[ $isa != sve* || -z $vector_bits ]] || isa+="-$vector_bits"
else
  # Another architecture (or a text this script cannot place): its own words
  # for the CPU, up to a parenthesis or ", " ("POWER9 (architected), ...").
  flags=""
  desc=""
  for key in uarch "model name" cpu Processor vendor_id Hardware; do
    desc=$(get "$key")
    desc=${desc%%(*}
    desc=${desc%%, *}
    [[ -z $(slug "$desc") ]] || break
  done
  ((!live)) || [[ -n $(slug "$desc") ]] || desc=$(uname -m)
  name_core=$(slug "$desc")
  name_core=${name_core:-unknown-cpu}
fi

if [[ -z $cpus ]]; then
  if ((live)); then
    cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
  else
    cpus=$(get processors)
    ((cpus > 0)) || cpus=1
  fi
fi
name=$name_core${isa:+-$isa}-${cpus}c

if ((!json)); then
  printf '%s\n' "$name"
  exit 0
fi

# ---- The full identity as JSON.
# Flags that decide Highway's target or change what the kernels may use.
matter="sse4_1 sse4_2 popcnt aes pclmulqdq avx avx2 bmi1 bmi2 fma f16c avx512f avx512dq
avx512cd avx512bw avx512vl avx512ifma avx512vbmi avx512_vbmi2 avx512_vnni avx512_bitalg
avx512_vpopcntdq avx512_bf16 avx512_fp16 avx512_vp2intersect avx_vnni gfni vaes vpclmulqdq
sha_ni amx_tile asimd asimddp asimdhp atomics crc32 sha3 sve sve2 svebf16 svei8mm bf16 i8mm"

# Sizes in bytes of the data, instruction and unified caches per level.
declare -A cache=()
read_caches() {
  local dir=$1 index level type size unit
  for index in "$dir"/index*; do
    [[ -r $index/level && -r $index/type && -r $index/size ]] || continue
    level=$(<"$index/level") type=$(<"$index/type") size=$(<"$index/size")
    [[ $level =~ ^[1-9]$ && $size =~ ^([0-9]{1,9})([KMG]?)$ ]] || continue
    size=${BASH_REMATCH[1]} unit=${BASH_REMATCH[2]}
    case $unit in
      K) size=$((size << 10)) ;;
      M) size=$((size << 20)) ;;
      G) size=$((size << 30)) ;;
    esac
    case $type in
      Data) cache[l${level}d]=$size ;;
      Instruction) cache[l${level}i]=$size ;;
      Unified) cache[l$level]=$size ;;
    esac
  done
}
if [[ -n $cache_dir ]]; then
  read_caches "$cache_dir"
elif ((live)); then
  if [[ -d /sys/devices/system/cpu/cpu0/cache ]]; then
    read_caches /sys/devices/system/cpu/cpu0/cache
  fi
  if ((${#cache[@]} == 0)) && command -v lscpu >/dev/null 2>&1; then
    while read -r cname csize; do
      [[ $cname =~ ^L[1-9][di]?$ && $csize =~ ^[0-9]{1,12}$ ]] && cache[${cname,,}]=$csize
    done < <(LC_ALL=C lscpu -B -C=NAME,ONE-SIZE 2>/dev/null || true)
  fi
  if ((${#cache[@]} == 0)) && command -v getconf >/dev/null 2>&1; then
    declare -A getconf_key=([LEVEL1_DCACHE_SIZE]=l1d [LEVEL1_ICACHE_SIZE]=l1i
      [LEVEL2_CACHE_SIZE]=l2 [LEVEL3_CACHE_SIZE]=l3)
    while read -r cname csize; do
      [[ -n ${getconf_key[$cname]:-} && $csize =~ ^[1-9][0-9]{0,11}$ ]] &&
        cache[${getconf_key[$cname]}]=$csize
    done < <(getconf -a 2>/dev/null || true)
  fi
fi

str() {
  if [[ -z $1 ]]; then
    printf 'null'
  else
    local s=${1//[$'\001'-$'\037']/}
    s=${s//\\/\\\\}
    s=${s//\"/\\\"}
    printf '"%s"' "$s"
  fi
}
num() { if [[ -n $1 ]]; then printf '%s' "$1"; else printf 'null'; fi; }

flag_list=""
for f in $matter; do
  if has_flag "$f"; then flag_list+="${flag_list:+, }\"$f\""; fi
done
cache_list=""
for level in l1d l1i l2 l3 l4; do
  [[ -z ${cache[$level]:-} ]] || cache_list+="${cache_list:+, }\"$level\": ${cache[$level]}"
done
printf '{"name": %s, "arch": %s, "vendor": %s, "family": %s, "model": %s, "stepping": %s, ' \
  "$(str "$name")" "$(str "$arch")" "$(str "$vendor")" "$(num "$family")" "$(num "$model")" \
  "$(num "$stepping")"
printf '"microarchitecture": %s, "implementer": %s, "part": %s, "variant": %s, ' \
  "$(str "$uarch")" "$(str "$implementer")" "$(str "$part")" "$(str "$variant")"
printf '"revision": %s, "midr": %s, "parts": %s, "known_as": %s, "model_name": %s, ' \
  "$(num "$revision")" "$(str "$midr")" "$parts_json" "$(str "$known_as")" "$(str "$model_name")"
printf '"isa": %s, ' "$(str "$isa")"
printf '"vector_bits": %s, "flags": [%s], "caches": {%s}, "cpus": %s, "source": %s}\n' \
  "$(num "$vector_bits")" "$flag_list" "$cache_list" "$cpus" "$(str "$source_file")"
