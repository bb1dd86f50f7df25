#!/usr/bin/env python3
"""Writes the seed inputs of the libFuzzer targets (tests/fuzz/targets) from the golden vectors
in tests/golden and a few hand-written cases, one file per input:
tests/fuzz/corpus/<target>/seed-<name>. Regression inputs (regress-*) are added by hand and are
never touched here. Run from anywhere; rewrites only seed-* files.

Input layouts (see each target's header comment):
  properties, mm2_config        the file's text
  connector_json                parser selector byte, then the body
  mirror_records                selector byte ((s >> 2) % 3: 0 records, 1 JSON writers,
                                2 ParseSourceOffset), then per mode: records (s % 3: heartbeat,
                                checkpoint, offset sync) 16-bit key length, key, value
  config_topic, status_topic,
  offsets_topic                 key NUL value (offsets/config: no NUL = tombstone)
  connect_protocol              selector byte (even: worker metadata, odd: assignment), payload
  kafka_protocol                API index byte (0 ApiVersions .. 7 SaslAuthenticate, 8 SCRAM,
                                9 Metadata, 10 Fetch, 11 Produce, 12 InitProducerId: mod 13),
                                version byte (min + b % count), frame after the size prefix
  json_converter                config byte (1 schemas.enable, 2 decimal NUMERIC, 4 replace
                                null with default, 8 null value), then the record value
  values                        the text Values.parseString reads
  key_store                     use/password byte (bit 0 keystore, bit 1 password "changeit"),
                                then the store (tests/golden/keystores, written by keytool)
  sasl_login                    selector byte (even: sasl.jaas.config, odd: a JWT), the text
  client_config                 role byte (mod 3: producer, consumer, admin), then key NUL value
                                NUL ... (a one-byte key picks a name of the target's dictionary)
  record_batch                  a partition's records bytes of a Fetch response (golden
                                batches of tests/golden/record_batch, alone, chained, cut off)
"""
import glob
import json
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
GOLDEN = os.path.join(ROOT, "tests", "golden")
CORPUS = os.path.dirname(os.path.abspath(__file__))


def rows(path):
    with open(os.path.join(GOLDEN, path), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                yield line.split("\t")


def unhex(text):
    return b"" if text in ("", "-", "~") else bytes.fromhex(text)


class Seeds:
    def __init__(self):
        self.by_target = {}

    def add(self, target, name, data):
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
        self.by_target.setdefault(target, {})[safe] = data

    def write(self):
        for target, seeds in sorted(self.by_target.items()):
            d = os.path.join(CORPUS, target)
            os.makedirs(d, exist_ok=True)
            for old in glob.glob(os.path.join(d, "seed-*")):
                os.remove(old)
            for name, data in sorted(seeds.items()):
                with open(os.path.join(d, "seed-" + name), "wb") as f:
                    f.write(data)
            print(f"{target}: {len(seeds)} seeds")


def properties(s):
    files = sorted(glob.glob(os.path.join(GOLDEN, "mirror_maker", "*.properties")))
    files += sorted(glob.glob(os.path.join(ROOT, "config", "*.properties")))
    for path in files:
        with open(path, "rb") as f:
            text = f.read()
        name = os.path.basename(path)
        s.add("properties", name, text)
        if "/mirror_maker/" in path:
            s.add("mm2_config", name, text)
    s.add("properties", "escapes",
          b"# comment\n! bang\n  key\\ with\\ spaces = value\\\\with\\tescapes\\u00e9\\u20AC\n"
          b"continued = first \\\n    second \\\r\n\tthird\nk:v\nk2 v2\n\\#not-comment=1\n"
          b"empty=\n=empty-key\nutf8=\xc3\xa9\n")
    s.add("properties", "bad-unicode", b"a=\\u12G4\n")
    s.add("properties", "crlf-cr", b"a=1\r\nb=2\rc=3\\\r\n  4")
    s.add("mm2_config", "minimal",
          b"clusters = A, B\nA.bootstrap.servers = a:9092\nB.bootstrap.servers = b:9092\n"
          b"A->B.enabled = true\nA->B.topics = .*\nreplication.factor=1\n"
          b"dedicated.mode.enable.internal.rest = TRUE\nsecurity.protocol=SSL\n"
          b"B.security.protocol=SASL_SSL\nB.producer.linger.ms=5\n"
          b"A.ssl.truststore.password=${env:MM2_TRUSTSTORE_PASSWORD}\n")
    s.add("mm2_config", "odd-aliases",
          b"clusters=my cluster,b/c,%x,\xc3\xa9\nmy\\ cluster->b/c.enabled=true\n"
          b"emit.heartbeats.enabled=false\n")


def connector_json(s):
    bodies = {
        0: [("create", b'{"name":"src","config":{"connector.class":"FileStreamSource","tasks.max":"1",'
                       b'"file":"/in.txt","topic":"t"},"initial_state":"PAUSED"}'),
            ("create-no-name", b'{"config":{"name":"x","n":1,"b":true,"z":null}}'),
            ("create-running", b'{"name":"a\\u00e9\\ud83d\\ude00","config":{},"initial_state":"RUNNING"}')],
        1: [("config", b'{"connector.class":"MirrorSourceConnector","source.cluster.alias":"A",'
                       b'"target.cluster.alias":"B","topics":".*","tasks.max":4}'),
            ("config-types", b'{"a":1.5e3,"b":false,"c":null,"d":[1],"e":{"x":1}}')],
        2: [("patch", b'{"tasks.max":"2","topics":null}')],
        3: [("tasks", b'[{"task.class":"x","k":"v"},{}]')],
        4: [("offsets", b'{"offsets":[{"partition":{"cluster":"A","partition":0,"topic":"t"},'
                        b'"offset":{"offset":42}},{"partition":{"filename":"/in"},"offset":null}]}'),
            ("offsets-null", b'{"offsets":null}')],
        5: [("logger", b'{"level":"DEBUG"}'),
            ("error", b'{"error_code":409,"message":"rebalance in progress"}')],
        6: [("document", b' {"k" : "v"} ')],
        7: [("leading-zeros", b'{"tasks":007,"x":-0.0e-0,"s":"\\u0000\\/","a":[true,false,null]}'),
            ("bom", b'\xef\xbb\xbf{"properties":{"k":"v"}}'),
            ("big-int", b'{"n":123456789012345678901234567890}')],
    }
    for selector, cases in bodies.items():
        for name, body in cases:
            s.add("connector_json", f"{selector}-{name}", bytes([selector]) + body)
    for row in rows("config_topic/config_topic.tsv"):
        if row[0].startswith("decode.") and row[1]:
            s.add("connector_json", "7-golden-" + row[0], bytes([7]) + unhex(row[1]))


def mirror_records(s):
    kinds = {"heartbeat": 0, "checkpoint": 1, "offset_sync": 2}
    for row in rows("mirror/records.tsv"):
        kind = row[0]
        key_hex, value_hex = (row[-2], row[-1]) if not row[-1].startswith("error") else (None, None)
        if key_hex is None or not all(c in "0123456789abcdef" for c in key_hex + value_hex):
            continue
        key, value = unhex(key_hex), unhex(value_hex)
        s.add("mirror_records", f"{kind}-{row[1]}",
              bytes([kinds[kind]]) + struct.pack(">H", len(key)) + key + value)
    for row in rows("mirror/records_decode.tsv"):
        kind = row[0]
        if kind not in kinds:
            continue
        key, value = unhex(row[2]), unhex(row[3])
        s.add("mirror_records", f"decode-{kind}-{row[1]}",
              bytes([kinds[kind]]) + struct.pack(">H", len(key)) + key + value)
    # JSON writers: selector (1 << 2) | shape, 32-bit number, a NUL b.
    s.add("mirror_records", "json-source", bytes([4]) + struct.pack(">i", 7) + b"primary\0orders")
    s.add("mirror_records", "json-checkpoint",
          bytes([5]) + struct.pack(">i", -1) + b"group\xc3\xa9\0t\xf0\x9f\x98\x80")
    s.add("mirror_records", "json-heartbeat", bytes([6]) + struct.pack(">i", 0) + b"A\0B\x01\"\\")
    s.add("mirror_records", "json-malformed", bytes([4]) + struct.pack(">i", 2**31 - 1) + b"\xff\xed\xa0\x80\0\xc0")
    # ParseSourceOffset: selector 2 << 2.
    for name, text in [("offset", b'{"offset":123}'), ("offset-ws", b' { "x" : [1,{"offset":2}], "offset" : 0042 } '),
                       ("offset-wrap", b'{"offset":18446744073709551617}'), ("offset-null", b'{"offset":null}'),
                       ("offset-double", b'{"offset":1.0}')]:
        s.add("mirror_records", "parse-" + name, bytes([8]) + text)
    for row in rows("mirror/offsets_json.tsv"):
        s.add("mirror_records", "parse-golden-" + row[1], bytes([8]) + unhex(row[-1]))


def config_topic(s):
    keys = {"connector": "connector-src", "task": "task-src-0", "commit": "commit-src",
            "target": "target-state-src", "restart": "restart-connector-src",
            "tasks-fencing": "tasks-fencing-src", "session": "session-key", "logger": "logger-cluster-org.x"}
    for row in rows("config_topic/config_topic.tsv"):
        name = row[0]
        value = unhex(row[1]) if len(row) > 1 else b""
        parts = name.split(".")
        key = None
        for prefix, k in keys.items():
            if parts[1].startswith(prefix):
                key = k
        for k in ([key] if key else ["connector-src", "commit-src", "session-key"]):
            s.add("config_topic", f"{name}-{k}", k.encode() + b"\0" + value)
    s.add("config_topic", "tombstone", b"connector-src")
    s.add("config_topic", "task-key-odd", b"task-a--7\0{\"properties\":{\"k\":null}}")
    s.add("config_topic", "session-key", b'session-key\0{"key":"c2VjcmV0","algorithm":"HmacSHA256","creation-timestamp":1700000000000}')


def status_topic(s):
    for row in rows("status_topic/status_records.tsv"):
        key, value = (row[10], row[11]) if row[0] == "status" else (row[6], row[7])
        s.add("status_topic", f"{row[0]}-{row[1]}", unhex(key) + b"\0" + unhex(value))
    s.add("status_topic", "task-odd", b'status-task-a--1\0{"state":"FAILED","trace":"x\\ny","worker_id":null,"generation":99999999999}')
    for row in rows("status_topic/partitions.tsv"):
        s.add("status_topic", "partition-" + (row[1] or "empty"), unhex(row[1]) + b"\0")
        break


def offsets_topic(s):
    for row in rows("offsets/json_converter.tsv"):
        value = b"" if row[6] == "null" else b"\0" + unhex(row[6])  # no NUL: a tombstone
        s.add("offsets_topic", row[0], unhex(row[5]) + value)
    for row in rows("mirror/offsets_json.tsv"):
        s.add("offsets_topic", "mm2-" + row[1], unhex(row[-2]) + b"\0" + unhex(row[-1]))
    s.add("offsets_topic", "tombstone", b'["c",{"filename":"/x"}]')
    s.add("offsets_topic", "types", b'[ "c" , {"d":1.0E-7,"i":-9223372036854775808,"b":true,"n":null,"s":"\\u00e9"} ]\0{"pos":1e300,"x":"\\ud800"}')


def connect_protocol(s):
    for row in rows("connect_protocol/connect_protocol.tsv"):
        selector = 0 if row[0].startswith("metadata") else 1
        s.add("connect_protocol", row[0], bytes([selector]) + unhex(row[1]))


API_INDEX = {"ApiVersions": 0, "FindCoordinator": 1, "JoinGroup": 2, "SyncGroup": 3,
             "Heartbeat": 4, "LeaveGroup": 5, "SaslHandshake": 6, "SaslAuthenticate": 7}
# (min version, first flexible) per API, as runtime/kafka/protocol/messages.cc.
API_VERSIONS = {"ApiVersions": (0, 3), "FindCoordinator": (1, 3), "JoinGroup": (2, 6),
                "SyncGroup": (0, 4), "Heartbeat": (0, 4), "LeaveGroup": (0, 4),
                "SaslHandshake": (0, 99), "SaslAuthenticate": (0, 2)}


def kafka_protocol(s):
    for row in rows("protocol/messages.tsv"):
        if not row[0].endswith("Response"):
            continue
        api = row[0][: -len("Response")]
        version = int(row[1])
        lo, flexible = API_VERSIONS[api]
        header = struct.pack(">i", 7)
        if version >= flexible and api != "ApiVersions":
            header += b"\0"  # no tagged fields
        s.add("kafka_protocol", f"{api}-v{version}",
              bytes([API_INDEX[api], version - lo]) + header + unhex(row[2] if len(row) > 2 else ""))
    # SCRAM-SHA-256, RFC 7677's example (user "user", password "pencil").
    s.add("kafka_protocol", "scram-sha256-rfc7677",
          bytes([8, 0]) + b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
          b"\0v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
    s.add("kafka_protocol", "scram-sha512-error", bytes([8, 1]) + b"e=invalid-proof\0e=other")
    # The data path's responses (selector 9 + index, one version each, all flexible).
    data_index = {"Metadata": 9, "Fetch": 10, "Produce": 11, "InitProducerId": 12}
    for row in rows("protocol/data_messages.tsv"):
        if row[0].endswith("Response"):
            api = row[0][: -len("Response")]
            s.add("kafka_protocol", f"{api}-v{row[1]}",
                  bytes([data_index[api], 0]) + struct.pack(">i", 7) + b"\0" + unhex(row[2]))


def json_converter(s):
    # tests/golden/json_converter/cases.tsv: name, input converter configs, output configs, input.
    for row in rows("json_converter/cases.tsv"):
        name, configs, text = row[0], row[1], "\t".join(row[3:])
        settings = dict(kv.split("=", 1) for kv in configs.split(",")) if configs != "-" else {}
        flags = 0
        if settings.get("schemas.enable", "true") == "true":
            flags |= 1
        if settings.get("decimal.format", "BASE64").upper() == "NUMERIC":
            flags |= 2
        if settings.get("replace.null.with.default", "true") == "true":
            flags |= 4
        if text == "~":
            s.add("json_converter", name, bytes([flags | 8]))
            continue
        raw = text.encode("utf-8")
        data = bytearray()
        i = 0
        while i < len(raw):  # \xHH is one byte
            if raw[i:i + 2] == b"\\x" and i + 4 <= len(raw):
                data.append(int(raw[i + 2:i + 4], 16))
                i += 4
            else:
                data.append(raw[i])
                i += 1
        s.add("json_converter", name, bytes([flags]) + bytes(data))


def values(s):
    # The literals InsertHeader's golden cases parse (tests/golden/transforms), and the shapes
    # Values.parseString tells apart.
    for row in rows("transforms/cases.tsv"):
        if "InsertHeader" in row[1] and "value.literal" in row[1]:
            config = json.loads(row[1])
            for key, literal in config.items():
                if key.endswith("value.literal"):
                    s.add("values", row[0], literal.encode("utf-8"))
    for name, text in [
            ("null", b" null "), ("int8", b"-128"), ("int16", b"32767"), ("int64", b"-9223372036854775808"),
            ("big", b"123456789012345678901234567890"), ("float", b"3.4e38"), ("double", b"3.5e38"),
            ("decimal", b"1e400"), ("date", b"2024-02-29"), ("time", b"23:59:59.999Z"),
            ("nested", b'[[1,2.5],[3],[]]'), ("map-mixed", b'{"a":1,"b":"x",c:[true]}'),
            ("quoted", b'["a,b","c\\"d"]'), ("malformed", b"[1,2"), ("colon", b"{a:b:c}"),
            ("unicode", "caf\u00e9 \U0001F600".encode("utf-8"))]:
        s.add("values", name, text)


def key_store(s):
    stores = os.path.join(GOLDEN, "keystores")
    for name in sorted(os.listdir(stores)):
        if not name.endswith((".jks", ".p12", ".jceks")):
            continue
        with open(os.path.join(stores, name), "rb") as f:
            data = f.read()
        use = 1 if name.startswith("keystore") else 0
        s.add("key_store", name.replace(".", "-"), bytes([use | 2]) + data)
        s.add("key_store", name.replace(".", "-") + "-nopw", bytes([use]) + data)


def sasl_login(s):
    def b64(data):
        import base64
        return base64.urlsafe_b64encode(data).rstrip(b"=")
    for name, text in [
            ("plain", b'org.apache.kafka.common.security.plain.PlainLoginModule required '
                      b'username="alice" password="a\\"b;c";'),
            ("oauth", b'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule '
                      b'required clientId=c clientSecret="s" scope="a b" extension_x="1";'),
            ("krb5", b'com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true '
                     b'storeKey=true keyTab="/etc/k.keytab" principal="kafka/h@EX.COM";'),
            ("two-modules", b"a.B required; c.D optional;"),
            ("unterminated", b'a.B required x="y;')]:
        s.add("sasl_login", "jaas-" + name, b"\x00" + text)
    header = b64(b'{"alg":"RS256","kid":"k"}')
    for name, claims in [("full", b'{"sub":"svc","iat":1700000000,"exp":1700003600,"scope":"k"}'),
                         ("no-iat", b'{"sub":"svc","exp":1700003600.5}'),
                         ("no-exp", b'{"sub":"svc"}'), ("not-object", b"[1,2]"),
                         ("past", b'{"iat":1700003600,"exp":1700000000}')]:
        s.add("sasl_login", "jwt-" + name, b"\x01" + header + b"." + b64(claims) + b".c2ln")
    s.add("sasl_login", "jwt-two-parts", b"\x01a.b")


def client_config(s):
    def pairs(role, items):
        out = bytes([role])
        for key, value in items:
            out += key.encode() + b"\x00" + value.encode() + b"\x00"
        return out
    krb5 = ('com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true '
            'keyTab="kt$(touch a)" principal="x;touch b";')
    s.add("client_config", "issue-48-kerberos", pairs(0, [
        ("security.protocol", "SASL_PLAINTEXT"), ("sasl.mechanism", "GSSAPI"),
        ("sasl.kerberos.service.name", "kafka"), ("sasl.jaas.config", krb5)]))
    s.add("client_config", "kerberos-good", pairs(1, [
        ("security.protocol", "SASL_SSL"), ("sasl.mechanism", "GSSAPI"),
        ("sasl.kerberos.service.name", "kafka"),
        ("sasl.jaas.config", 'com.sun.security.auth.module.Krb5LoginModule required '
                             'useKeyTab=true keyTab="/etc/connectd/c.keytab" '
                             'principal="connect/host.example.com@EXAMPLE.COM";')]))
    s.add("client_config", "librdkafka-code", pairs(2, [
        ("plugin.library.paths", "/tmp/x.so"), ("ssl.engine.location", "/tmp/e.so"),
        ("sasl.kerberos.kinit.cmd", "touch /tmp/pwned"), ("test.mock.num.brokers", "3"),
        ("topic.offset.store.path", "/tmp/o"), ("ut_handle_ProduceResponse", "x")]))
    s.add("client_config", "oauth-url", pairs(0, [
        ("security.protocol", "SASL_SSL"), ("sasl.mechanism", "OAUTHBEARER"),
        ("sasl.login.callback.handler.class",
         "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler"),
        ("sasl.oauthbearer.token.endpoint.url", "http://127.0.0.1:9/token"),
        ("sasl.jaas.config", "org.apache.kafka.common.security.oauthbearer."
                             "OAuthBearerLoginModule required clientId=a clientSecret=b;")]))
    s.add("client_config", "jndi", pairs(1, [
        ("security.protocol", "SASL_PLAINTEXT"), ("sasl.mechanism", "PLAIN"),
        ("sasl.jaas.config", "com.sun.security.auth.module.JndiLoginModule required "
                             'user.provider.url="ldap://127.0.0.1:9/o=x";')]))
    s.add("client_config", "plain-tuning", pairs(0, [
        ("bootstrap.servers", "a:9092"), ("acks", "all"), ("linger.ms", "5"),
        ("partitioner.class", "x.Y"), ("max.request.size", "100"), ("compression.type", "lz4")]))


def record_batch(s):
    batches = {row[0]: unhex(row[1]) for row in rows("record_batch/batches.tsv")}
    for name, batch in batches.items():
        s.add("record_batch", name, batch)
    chained = batches["plain-lz4"] + batches["control-commit"] + batches["transactional-zstd"]
    s.add("record_batch", "chained", chained)
    s.add("record_batch", "chained-cut-off", chained + batches["plain-gzip"][:-9])


def main():
    s = Seeds()
    properties(s)
    connector_json(s)
    mirror_records(s)
    config_topic(s)
    status_topic(s)
    offsets_topic(s)
    connect_protocol(s)
    kafka_protocol(s)
    json_converter(s)
    values(s)
    key_store(s)
    sasl_login(s)
    client_config(s)
    record_batch(s)
    s.write()


if __name__ == "__main__":
    main()
