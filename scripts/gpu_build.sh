#!/usr/bin/env bash
# Sourced by the GPU scripts (gpu_all.sh, gpu_sanitize.sh): make cmocka
# available (from Debian's .debs carried in .debs/ when the machine lacks
# it: the GPU machines cannot reach a package registry), configure build-gpu
# with CUDA once, build it, and set PGBIN.  Sets `tests` to auto or disabled.
# Exits the calling script with status 1 if the build fails.
tests=auto
if ! pkg-config --exists cmocka; then
    if ls .debs/libcmocka*.deb >/dev/null 2>&1; then
        rm -rf build-gpu-deps && mkdir -p build-gpu-deps
        for d in .debs/libcmocka*.deb; do dpkg -x "$d" build-gpu-deps; done
        pc=$(dirname "$(find "$PWD/build-gpu-deps" -name cmocka.pc | head -1)")
        sed -i "s#/usr/#$PWD/build-gpu-deps/usr/#g" "$pc/cmocka.pc" # Debian's .pc has absolute paths
        export PKG_CONFIG_PATH="$pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
        export LD_LIBRARY_PATH="$(dirname "$(find "$PWD/build-gpu-deps" -name 'libcmocka.so.0' | head -1)")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    else
        tests=disabled
    fi
fi
build_log=$(mktemp)
if [ ! -f build-gpu/build.ninja ]; then
    meson setup build-gpu -Dcuda=enabled -Dtests=$tests >"$build_log" 2>&1 || { cat "$build_log"; exit 1; }
fi
ninja -C build-gpu >"$build_log" 2>&1 || { tail -50 "$build_log"; exit 1; }
rm -f "$build_log"
PGBIN=./build-gpu/cli/pegemm
