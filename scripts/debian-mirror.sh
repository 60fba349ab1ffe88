# Sourced by the install scripts: sets `mirror` and `keyring`, the Debian archive URI and its
# keyring from this machine's own apt configuration (deb822 .sources first, then .list files),
# so a private sources list can point at other suites of the same archive. Needs `log`.

debian_mirror_and_key() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk '
            /^URIs:/ {uri=$2} /^Suites:/ {suites=$0} /^Signed-By:/ {key=$2}
            /^$/ { if (uri ~ /debian\/?$/ && suites !~ /security/) { print uri, key; exit } uri=""; suites=""; key="" }
            END { if (uri ~ /debian\/?$/ && suites !~ /security/) print uri, key }
        ' "$f"
    done
    grep -hE '^deb[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
        | grep -v security | awk '$2 ~ /debian\/?$/ {print $2, "/usr/share/keyrings/debian-archive-keyring.gpg"}'
}

read -r mirror keyring < <(debian_mirror_and_key | head -n 1) || true
[ -n "${mirror:-}" ] || { log "no Debian archive found in the apt sources"; exit 1; }
[ -f "${keyring:-}" ] || keyring=/usr/share/keyrings/debian-archive-keyring.gpg
