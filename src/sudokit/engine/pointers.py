"""Kernels passed to other kernels by address, and kernels compiled without a call.

numba compiles a kernel together with every kernel it calls: the caller
waits for its callees, and their code is linked in and optimised again. A
kernel that takes another's address (an int64) and calls the function there
is compiled for the callee's signature alone, whatever function comes at
run time. So the two compile apart, in two processes on a first run
(:func:`sudokit.engine.compiling.alongside`): the generator's minimiser and
its verdicts, the 9x9 solver over any units and its propagation.

* :func:`address_of`: a kernel compiled for one signature (or loaded from
  numba's cache), as the address of its machine code in numba's own calling
  convention. An int crosses from Python into a kernel for nothing, where
  numba's first-class function objects cost some microseconds a call.
* :func:`function_at`: for a signature, the intrinsic by which a kernel
  turns such an address into a function it calls (``at(address)(...)``): a
  direct call, as fast as a call to a kernel that was not inlined, with
  numba's error status passed on.
* :func:`compile_for`: compile a kernel for the types of some values (or
  load it from the cache) without calling it; the kernel that takes an
  address compiles with any int there (0), before the callee exists.
"""

from __future__ import annotations

from .compiling import load_numba

load_numba()

from numba import types  # noqa: E402
from numba.core import cgutils  # noqa: E402
from numba.experimental.function_type import _get_jit_address  # noqa: E402
from numba.extending import intrinsic  # noqa: E402

__all__ = ["address_of", "compile_for", "function_at"]

_addresses: dict[tuple, int] = {}


def address_of(kernel, signature) -> int:
    """The address of ``kernel`` compiled for ``signature`` (loaded from the
    cache, or compiled, on the first call in a process)."""
    key = (kernel, signature)
    if key not in _addresses:
        kernel.compile(signature.args)
        address = _get_jit_address(kernel, signature)
        if address <= 0:
            raise RuntimeError(f"no machine code for {kernel.py_func.__name__}{signature.args}")
        _addresses[key] = address
    return _addresses[key]


def function_at(signature):
    """An intrinsic of kernels: ``at(address)`` is the function of
    ``signature`` at ``address`` (from :func:`address_of`), to call."""
    function = types.FunctionType(signature)

    @intrinsic
    def at(typingctx, address):
        if not isinstance(address, types.Integer):
            return None

        def codegen(context, builder, sig, args):
            value = cgutils.create_struct_proxy(function)(context, builder)
            pointer = context.get_value_type(types.voidptr)
            value.c_addr = pointer(None)
            value.py_addr = pointer(None)
            value.jit_addr = builder.inttoptr(args[0], pointer)
            return value._getvalue()

        return function(address), codegen

    return at


def compile_for(kernel, *values) -> None:
    """Compile ``kernel`` for the types of ``values`` (or load it from the cache), without calling it."""
    kernel.compile(tuple(kernel.typeof_pyval(v) for v in values))
