#!/bin/bash
# Regenerates the key stores of jvm/java_key_store's tests (tests/unit/jvm/java_key_store_test.cc)
# with the JDK's keytool and OpenSSL: a CA, a client key signed by it, and the stores a Java
# worker's ssl.truststore.* / ssl.keystore.* name. Every password is "changeit" except the JKS
# key's own password in keystore-keypass.jks ("keypass"). Run from this directory.
set -euo pipefail
keytool=${KEYTOOL:-keytool}
rm -f ./*.jks ./*.p12 ./*.jceks ./*.pem
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca-key.pem -out ca.pem -days 36500 \
  -subj "/CN=connectd test CA" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout client-key.pem \
  -out client.csr -subj "/CN=connectd-client" 2>/dev/null
openssl x509 -req -in client.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 36500 \
  -out client.pem 2>/dev/null
rm -f client.csr ca.srl ca-key.pem
# Truststores: the CA as a trusted-certificate entry.
for type in JKS PKCS12 JCEKS; do
  ext=$(echo "$type" | tr 'A-Z' 'a-z'); [[ $ext == pkcs12 ]] && ext=p12
  "$keytool" -importcert -noprompt -alias ca -file ca.pem -keystore "truststore.$ext" \
    -storetype "$type" -storepass changeit >/dev/null
done
# Keystores: the client key with its chain (client, CA).
cat client.pem ca.pem > chain.pem
openssl pkcs12 -export -in chain.pem -inkey client-key.pem -name client -out keystore.p12 \
  -passout pass:changeit
openssl pkcs12 -export -legacy -in chain.pem -inkey client-key.pem -name client \
  -out keystore-legacy.p12 -passout pass:changeit
"$keytool" -importkeystore -noprompt -srckeystore keystore.p12 -srcstoretype PKCS12 \
  -srcstorepass changeit -destkeystore keystore.jks -deststoretype JKS -deststorepass changeit \
  2>/dev/null
"$keytool" -importkeystore -noprompt -srckeystore keystore.p12 -srcstoretype PKCS12 \
  -srcstorepass changeit -destkeystore keystore-keypass.jks -deststoretype JKS \
  -deststorepass changeit -destkeypass keypass 2>/dev/null
rm -f chain.pem
