"""Compiled searches (numba): the jit backend (CPU), the gpu backend (CUDA), their kernels."""
