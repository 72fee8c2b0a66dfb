"""Package layout, which pyproject.toml alone cannot say: the Python packages are found under
src/, and fmu_templates/ (C, at the top of the repository) ships inside the compiler package as
compiler.fmu_templates so that installed copies find the runtime next to the code."""
from setuptools import find_packages, setup

setup(
    packages=find_packages("src") + ["compiler.fmu_templates"],
    package_dir={"": "src", "compiler.fmu_templates": "fmu_templates"},
    package_data={"compiler.fmu_templates": ["*.c", "*.h"]},
)
