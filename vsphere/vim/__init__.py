"""The only code that imports pyvmomi: the driver, the specs it sends, the devices it reads, its faults."""
