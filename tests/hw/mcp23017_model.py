"""MCP23017 expanders with their INT outputs modelled electrically, and their brown-out.

Extends `simulators.panel.SimulatedExpanderBus` (registers, GPIO reads releasing the interrupt) with
what the datasheet says about INT (3.6.5, IOCON): MIRROR joins both ports' interrupts on each pin,
ODR = 1 makes it open drain (pulls low when asserted, else lets go), ODR = 0 push-pull with INTPOL
giving the asserted level: an idle push-pull output drives the line *high* against the other
chips pulling it low, so the Pi sees no falling edge (`contention`). `brown_out(address)` puts a
chip back at its power-on values: IOCON = 0 (push-pull), IODIR = 0xFF, every other register 0.
"""

from __future__ import annotations

from hw.panel_mcp23017 import IOCON, IODIR
from simulators.panel import SimulatedExpanderBus

IOCON_MIRROR, IOCON_ODR, IOCON_INTPOL = 0x40, 0x04, 0x02


class ExpanderBusModel(SimulatedExpanderBus):
    contention = False  # a push-pull INT driving high while another chip pulls the line low

    def brown_out(self, address: int) -> None:
        regs = self.regs[address]
        regs[:] = bytes(len(regs))
        regs[IODIR] = regs[IODIR + 1] = 0xFF
        self.pending[address] = [0, 0]
        self._drive_interrupt()

    def _drive_interrupt(self) -> None:
        if self.interrupt is None:
            return
        low = high = False
        for address, regs in self.regs.items():
            iocon = regs[IOCON]
            # INTA is the wire: port A's interrupt, or either port's with MIRROR
            asserted = bool(self.pending[address][0] or iocon & IOCON_MIRROR and self.pending[address][1])
            if iocon & IOCON_ODR:
                low |= asserted
            else:
                drives_high = asserted == bool(iocon & IOCON_INTPOL)
                high |= drives_high
                low |= not drives_high
        self.contention = low and high
        if low and not high:
            self.interrupt.drive_low()
        else:
            self.interrupt.drive_high()  # let go (pull-up), or a push-pull output holds it high
