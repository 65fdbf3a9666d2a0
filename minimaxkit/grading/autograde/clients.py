"""jupyter_client's kernel manager and client with limits on every wait, so that a kernel
whose code broke its own connection cannot hold nbgrader up."""

from __future__ import annotations

from typing import Any

__all__ = ["bounded_client", "kernel_manager", "SEND_WAIT", "HB_STOP"]

SEND_WAIT = 2.0  # seconds a message to the kernel's control socket may wait
HB_STOP = 5.0  # seconds the heartbeat thread gets to stop


# ----- the sandboxed kernel -------------------------------------------------------------
def bounded_client() -> type:
    """jupyter_client's async kernel client whose heartbeat thread stops within a few
    seconds: its ``stop`` joins the thread without a limit, and a kernel whose code wrote
    garbage into its own sockets leaves that thread blocked, so nbgrader would wait forever
    in the cleanup after the notebook."""
    from jupyter_client.asynchronous import AsyncKernelClient
    from jupyter_client.channels import HBChannel
    from traitlets import Type

    class BoundedHB(HBChannel):  # type: ignore[misc]
        def stop(self) -> None:
            self._running = False
            self._exit.set()
            self.join(timeout=HB_STOP)
            if not self.is_alive():
                self.close()

    class Client(AsyncKernelClient):  # type: ignore[misc]
        hb_channel_class = Type(BoundedHB)

    return Client


def kernel_manager() -> type:
    """jupyter_client's async kernel manager whose messages to the kernel's control socket
    give up after :data:`SEND_WAIT` seconds. A socket whose peer is gone (a notebook that
    wrote garbage into its kernel's sockets) would otherwise block the interrupt, and with
    it nbgrader, forever; an interrupt that cannot be sent stops the kernel instead."""
    import zmq
    from jupyter_client.manager import AsyncKernelManager

    class Manager(AsyncKernelManager):  # type: ignore[misc]
        def _connect_control_socket(self) -> None:
            if self._control_socket is None:
                super()._connect_control_socket()
                socket: Any = self._control_socket
                socket.sndtimeo = int(SEND_WAIT * 1000)
                socket.linger = 0

        async def _async_interrupt_kernel(self) -> None:
            try:
                await super()._async_interrupt_kernel()
            except zmq.Again:
                self.log.warning("minimaxkit: the kernel does not take messages any more; "
                                 "it is stopped")
                await self._async_kill_kernel()

        interrupt_kernel = _async_interrupt_kernel

    return Manager
