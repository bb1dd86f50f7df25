#!/usr/bin/env bash
# Installs the SDK from the build, builds connectors/examples/template out of tree against it
# (with CMake, and once more with pkg-config alone), and checks the worker's loader lists it.
# Usage: template_plugin_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$1" src="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S "$src/connectors/examples/template" -B "$tmp/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/build" >/dev/null
mkdir -p "$tmp/plugins/hello"
cp "$tmp/build/libhello_connector.so" "$tmp/plugins/hello/"

cflags="$(PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --cflags connectd-sdk)"
[[ "$cflags" == *"/include"* ]]
# shellcheck disable=SC2086  # cflags is a word list
g++ -std=c++17 -shared -fPIC -fvisibility=hidden -Wl,--no-undefined $cflags \
  "$src/connectors/examples/template/hello_connector.cc" -o "$tmp/plugins/libhello_pkgconfig.so"
[[ -s "$tmp/plugins/libhello_pkgconfig.so" ]]

out="$("$build/bin/connectd" plugins --plugin-path "$tmp/plugins/hello" 2>/dev/null)"
echo "$out"
grep -q $'^source\tcom.example.HelloSourceConnector\t0.1.0\taliases=HelloSource,HelloSourceConnector' <<<"$out"
echo "template plugin built out of tree and listed by the loader"
