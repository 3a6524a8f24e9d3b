from enum import StrEnum


class CatalogItemVersionRulesWorkloadClassType1ChoicesItem(StrEnum):
    HIGH_THROUGHPUT = "high-throughput"
    ML = "ml"
    PARALLEL_DISTRIBUTED = "parallel-distributed"

    def __str__(self) -> str:
        return str(self.value)
