# Sourced by scripts/run.sh after 10-vcsim.sh: the NSX Manager stand-in (tools/nsxsim) wired to the
# vCenter simulator, registered as the demo site's NSX Manager, so overlay (GENEVE) clusters are offered.
nsx_dir="$ENCLAVE_DATA_DIR/secrets/nsxsim"  # its CA file must lie under ENCLAVE_SECRETS_DIR
rm -f "$nsx_dir/ready.json"
mkdir -p "$nsx_dir"
vcsim_json="$ENCLAVE_DATA_DIR/vcsim.json"
vc_port="$(python -c 'import json,sys; print(json.load(open(sys.argv[1]))["host"].rsplit(":", 1)[1])' "$vcsim_json")"
vc_user="$(python -c 'import json,sys; print(json.load(open(sys.argv[1]))["user"])' "$vcsim_json")"
vc_pass="$(python -c 'import json,sys; print(json.load(open(sys.argv[1]))["password"])' "$vcsim_json")"
bash scripts/nsxsim.sh start --port "${ENCLAVE_NSXSIM_PORT:-8990}" --workdir "$nsx_dir" \
  --vcsim-host 127.0.0.1 --vcsim-port "$vc_port" --vcsim-user "$vc_user" --vcsim-password "$vc_pass" \
  --vcsim-ca "$ENCLAVE_DATA_DIR/secrets/vcsim-ca.pem" --datacenter DC0 --dvs enclave-sriov \
  >"$ENCLAVE_DATA_DIR/logs/nsxsim.log" 2>&1 & pids+=($!)
for _ in $(seq 150); do [ -s "$nsx_dir/ready.json" ] && break; sleep 0.2; done
python manage.py nsx_register_sim "$nsx_dir/ready.json" | sed 's/^/nsxsim: /'
