# Sourced by scripts/sanitize.
# debian_source PACKAGE BINARY_PACKAGE WORKDIR: the source package of the installed BINARY_PACKAGE
# (same version, Debian's patches applied), unpacked in WORKDIR/src. A private deb-src list and apt
# state under WORKDIR are used: nothing under /etc/apt changes.
debian_source() {
  local pkg="$1" bin="$2" work="$3" version suites
  version="$(dpkg-query -W -f='${Version}' "$bin")"
  echo "${0##*/}: fetching Debian's source of $pkg $version" >&2
  rm -rf "$work" && mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial"
  suites="$(sed -n 's/^Suites: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)"
  suites="${suites%% *}" && suites="${suites:-bookworm}"
  {
    echo "deb-src http://deb.debian.org/debian $suites main"
    echo "deb-src http://deb.debian.org/debian $suites-updates main"
    echo "deb-src http://deb.debian.org/debian-security $suites-security main"
  } >"$work/apt/src.list"
  local apt=(-o "Dir::Etc::SourceList=$work/apt/src.list" -o Dir::Etc::SourceParts=/dev/null
             -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache")
  apt-get "${apt[@]}" -qq update
  (cd "$work" && apt-get "${apt[@]}" -qq source --download-only "$pkg=$version" 2>/dev/null &&
     dpkg-source -x --no-check ./*.dsc src >/dev/null)
}
