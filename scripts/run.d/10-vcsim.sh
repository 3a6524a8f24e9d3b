# Sourced by scripts/run.sh: start the vSphere simulator as the demo site's vCenter and register it.
rm -f "$ENCLAVE_DATA_DIR/vcsim.json"
mkdir -p "$ENCLAVE_DATA_DIR/secrets"  # ENCLAVE_SECRETS_DIR's default: vCenter CA bundles must live there
bash scripts/vcsim.sh start -port "${ENCLAVE_VCSIM_PORT:-8989}" -hosts 4 -profile vcenter \
  -ready-file "$ENCLAVE_DATA_DIR/vcsim.json" -ca-out "$ENCLAVE_DATA_DIR/secrets/vcsim-ca.pem" \
  >"$ENCLAVE_DATA_DIR/logs/vcsim.log" 2>&1 & pids+=($!)
for _ in $(seq 100); do [ -s "$ENCLAVE_DATA_DIR/vcsim.json" ] && break; sleep 0.2; done
python manage.py vsphere_register_sim "$ENCLAVE_DATA_DIR/vcsim.json" | sed 's/^/vcsim: /'
