#!/usr/bin/env bash
# Install what pegemm needs on a Debian machine (root), and only what is missing.
# Used by both README commands and by .ci/run, so a fresh machine and CI get the same tools.
# `setup.sh --fuzz` also installs clang and its libFuzzer runtime (tests/fuzz/campaign.sh).
set -euo pipefail
pkgs=(meson ninja-build pkg-config gcc libhdf5-dev hdf5-tools libcmocka-dev
      libopenblas-dev libomp-dev python3-h5py python3-numpy)
if [ "${1:-}" = "--fuzz" ]; then
  pkgs+=(clang)
  # libFuzzer ships in libclang-rt-<major>-dev, named after the clang installed.
  if command -v clang >/dev/null; then
    pkgs+=("libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev")
  fi
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi
if [ "${1:-}" = "--fuzz" ] && ! dpkg-query -W -f='${Status}' "libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev" 2>/dev/null | grep -q 'install ok installed'; then
  exec bash "$0" --fuzz  # clang was new: now its runtime package has a name
fi
