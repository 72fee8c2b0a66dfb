"""Package layout, which pyproject.toml alone cannot say: the Python packages are found under
src/, and fmu_templates/ (C, at the top of the repository) ships inside the compiler package as
compiler.fmu_templates so that installed copies find the runtime next to the code; likewise
rust_templates/ (the Rust runtime of the Rust backend) as compiler.rust_templates."""
from setuptools import find_packages, setup

setup(
    packages=find_packages("src") + ["compiler.fmu_templates", "compiler.rust_templates"],
    package_dir={"": "src", "compiler.fmu_templates": "fmu_templates",
                 "compiler.rust_templates": "rust_templates"},
    package_data={"compiler.fmu_templates": ["*.c", "*.h"], "compiler.rust_templates": ["*.rs"]},
)
