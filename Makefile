# Enclave: `make run` starts the whole product locally, `make test` runs the whole suite.
SHELL := /bin/bash
ENV := source scripts/env.sh &&
PORT ?= 8000

.PHONY: run test bootstrap services stop lint migrate demo schema clean-data terraform

bootstrap:
	@bash scripts/bootstrap.sh

services: bootstrap
	@bash scripts/services.sh start

migrate: services
	@$(ENV) python manage.py migrate --noinput -v0

demo: migrate
	@$(ENV) python manage.py seed_demo && python manage.py seed_network_demo && python manage.py seed_demo_catalog && python manage.py seed_demo_fabric

run: migrate
	@$(ENV) ENCLAVE_DEBUG=1 PORT=$(PORT) bash scripts/run.sh

# bootstrap then starts Terraform's build (for tests/terraform) beside its installs.
test: export ENCLAVE_BUILD_TERRAFORM := 1
test: services
	@$(ENV) bash scripts/test.sh

# Terraform v1.5.7 and Enclave's provider into .data/bin (for your own Terraform runs; `make test` builds them too).
terraform: bootstrap
	@$(ENV) bash scripts/terraform.sh build

# Fails on any finding: lint, formatting, types (the same as the start of `make test`).
lint: bootstrap
	@$(ENV) bash scripts/lint.sh

schema: migrate
	@$(ENV) python manage.py spectacular --validate --fail-on-warn --file .data/openapi.yaml

stop:
	@bash scripts/services.sh stop

clean-data: stop
	rm -rf .data
