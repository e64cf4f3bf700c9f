// The firmware's Pico, emulated: MicroPython on rp2040js, with the board's
// sensors, its WS2812 chain and its USB port wired to the test harness.
//
//   node pico.mjs --bootrom B --firmware F --fs IMAGE [--port 0]
//
// * USB: the CDC serial port is bridged to a TCP server on 127.0.0.1 (the
//   port is announced on stdout); a client is a host with the port open
//   (DTR set), its leaving is the port closed.
// * Control: one JSON command per line on stdin; events, one JSON object per
//   line on stdout (see harness.py for both).
// * Time is the emulated chip's: every event carries the simulated time in
//   nanoseconds, and "t" events report it as it advances.
//
// Stock rp2040js steps the PIO on a host timer, unrelated to the CPU's
// clock; here the PIO is stepped between CPU instructions until its state
// machine's cycles catch up with the simulated time at the divider's rate,
// so the WS2812 waveform has the timing a real chip gives it.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { RP2040, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';

const FLASH_FS_OFFSET = 0xa0000; // where MicroPython's rp2 port keeps its littlefs
const WATCHDOG_BASE = 0x40058; // the watchdog's peripheral block
const CHUNK_INSTRUCTIONS = 20000; // CPU instructions between looks at the outside
const TIME_EVENT_NS = 1e6; // report the time at least every simulated millisecond
const LATCH_NS = 50000; // WS2812: low this long ends a frame
// While the LED state machine shifts a frame, a sleeping chip's clock moves on
// at most this far at a time: a DMA channel refills the machine's FIFO as the
// machine empties it, at the next tick of the clock, and four words (120 us)
// must never run dry between two ticks.
const PIO_BUSY_STEP_NS = 5000;

function argument(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) {
    if (fallback === undefined) throw new Error(`--${name} is required`);
    return fallback;
  }
  return process.argv[at + 1];
}

const bootromBytes = readFileSync(argument('bootrom'));
const bootrom = new Uint32Array(bootromBytes.buffer, bootromBytes.byteOffset, bootromBytes.length / 4);
const firmware = readFileSync(argument('firmware'));
const filesystem = readFileSync(argument('fs'));
const ledPin = Number(argument('led-pin', '22'));

// The boot ROM's flash functions (found by their two-letter codes in its
// function table, as rom_func_lookup finds them): rp2040js has no flash chip
// behind its SSI, so erasing and programming are done here, on the flash
// array, when the chip calls them; a NOR flash programs by clearing bits.
function romFunction(code) {
  let entry = bootromBytes.readUInt16LE(0x14);
  for (;;) {
    const found = bootromBytes.readUInt16LE(entry);
    if (!found) throw new Error(`no ROM function ${code}`);
    if (found === (code.charCodeAt(0) | (code.charCodeAt(1) << 8))) {
      return bootromBytes.readUInt16LE(entry + 2) & ~1;
    }
    entry += 4;
  }
}
const ROM_FLASH_ERASE = romFunction('RE'); // (offset, count, block size, block command)
const ROM_FLASH_PROGRAM = romFunction('RP'); // (offset, data, count)

function flashCall() {
  const { core } = mcu;
  const [offset, second, third] = core.registers;
  if (core.PC === ROM_FLASH_ERASE) {
    mcu.flash.fill(0xff, offset, offset + second);
  } else {
    for (let i = 0; i < third; i++) mcu.flash[offset + i] &= mcu.readUint8(second + i);
  }
  core.PC = core.LR & ~1; // return to the caller
}

function emit(event) {
  event.ns = Math.round(mcu ? mcu.clock.nanos + clockBase : 0);
  process.stdout.write(JSON.stringify(event) + '\n');
}

// ---- the chip --------------------------------------------------------------

let mcu = null;
let cdc = null;
let clockBase = 0; // simulated time before the last reset: time never goes back
let flash = null; // the flash as the chip left it, kept across resets
let usbReady = false;

function boot() {
  const previous = mcu;
  let watchdogKept = null; // what the watchdog keeps through its own reset
  if (previous) {
    clockBase += previous.clock.nanos;
    flash = previous.flash.slice();
    if (resetBy === 'watchdog') {
      const dog = previous.peripherals[WATCHDOG_BASE];
      watchdogKept = { reason: dog.reason, scratch: dog.scratchData.slice() };
    }
  }
  mcu = new RP2040();
  // rp2040js finds a peripheral by its address in an object keyed by number,
  // a dictionary, on every write (SRAM's too, which it looks for after the
  // peripherals): an array indexed the same way finds the same ones, and the
  // lookup was a thirteenth of the emulator's time.
  const byBlock = [];
  for (let block = 0; block < 1 << 18; block++) byBlock.push(mcu.peripherals[block << 2] || null);
  mcu.findPeripheral = (address) => byBlock[address >>> 14];
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.loadBootrom(bootrom); // clears the flash
  if (flash) {
    mcu.flash.set(flash);
  } else {
    mcu.flash.set(firmware, 0);
    mcu.flash.set(filesystem, FLASH_FS_OFFSET);
  }
  mcu.core.PC = 0x10000000;
  if (watchdogKept) {
    // A watchdog reset keeps the scratch registers and says why it happened
    // (REASON); power-on and the RUN pin clear both.
    const dog = mcu.peripherals[WATCHDOG_BASE];
    dog.reason = watchdogKept.reason;
    dog.scratchData.set(watchdogKept.scratch);
  }
  hung = false;
  // The PIO is stepped by run() below, never by its own timer.
  for (const pio of mcu.pio) pio.run = () => {};
  const dog = mcu.peripherals[WATCHDOG_BASE];
  dog.onWatchdogTrigger = () => {
    // Stock rp2040js keeps the expired counter's alarm due at the same
    // instant, so the clock would fire it for ever: the chip resets instead.
    dog.alarm.enable = false;
    pendingReset = true;
    resetBy = 'watchdog';
  };
  wireUsb();
  wireSensors();
  wireLeds();
  pio = { ns: 0, carry: 0 };
  pioIdle = false;
  // Only a write to the PIO (the CPU's or a DMA channel's) starts a stalled
  // machine: until one, run() need not step it (see pioIdle).
  const pio0 = mcu.pio[0];
  const write = pio0.writeUint32.bind(pio0);
  pio0.writeUint32 = (offset, value) => {
    if (pioIdle) {
      pio.ns = mcu.clock.nanos;
      pioIdle = false;
    }
    write(offset, value);
  };
}

// ---- USB: the CDC port bridged to one TCP client ------------------------------

let client = null;
const damage = { lines: 0, column: 0, done: 0 }; // device lines still to spoil
let fromHost = []; // bytes the host sent, not yet given to the CDC
let outArmed = null; // the size of the OUT buffer the device has armed, if any

function wireUsb() {
  usbReady = false;
  cdc = new USBCDC(mcu.usbCtrl);
  cdc.onDeviceConnected = () => {
    usbReady = true;
    if (!client) cdc.cdcSetControlLineState(0); // nobody has the port open
    emit({ ev: 'usb', enumerated: true });
  };
  // Stock USBCDC answers every OUT buffer the device arms at once, with
  // zero bytes when the host has nothing to send: the device re-arms, and
  // the USB interrupt fires some 35,000 times a simulated second, so the
  // chip never sleeps (a real host NAKs until it has data).  Here an armed
  // buffer waits for the host's bytes.
  outArmed = null;
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint !== cdc.outEndpoint) return;
    outArmed = size;
    feedUsb();
  };
  cdc.onSerialData = (data) => {
    if (!client) return;
    const bytes = Buffer.from(data);
    for (let i = 0; i < bytes.length && damage.lines > 0; i++) {
      // Spoil one byte in the middle of each of the next lines, as a bad cable does.
      damage.column += 1;
      if (bytes[i] === 0x0a) damage.column = 0;
      else if (damage.column === 12) {
        bytes[i] ^= 0x20;
        damage.lines -= 1;
        damage.done += 1;
      }
    }
    client.write(bytes);
    keepDeviceLines(bytes);
    if (process.env.PICO_LINES) traceLines('tx', bytes);
    if (process.env.PICO_TRACE) emit({ ev: 'tx', text: bytes.toString('latin1') });
  };
}

const server = createServer((socket) => {
  if (client) {
    socket.destroy(); // a serial port has one owner
    return;
  }
  client = socket;
  socket.setNoDelay(true);
  fromHost = [];
  if (usbReady) cdc.cdcSetControlLineState(); // DTR and RTS, as pyserial sets them
  emit({ ev: 'host', open: true });
  socket.on('data', (data) => {
    for (const byte of data) fromHost.push(byte);
    if (process.env.PICO_TRACE) emit({ ev: 'rx', text: data.toString('latin1') });
  });
  const gone = () => {
    if (client !== socket) return;
    client = null;
    fromHost = [];
    if (usbReady) cdc.cdcSetControlLineState(0);
    emit({ ev: 'host', open: false });
  };
  socket.on('close', gone);
  socket.on('error', gone);
});

// The device's last lines, for `replay`: a USB hub or adapter that delivers
// a run of old lines again.
const KEPT_LINES = 8;
let deviceLines = [];
let devicePartial = Buffer.alloc(0);

function keepDeviceLines(bytes) {
  devicePartial = Buffer.concat([devicePartial, bytes]);
  let end;
  while ((end = devicePartial.indexOf(0x0a)) >= 0) {
    deviceLines.push(devicePartial.subarray(0, end + 1));
    devicePartial = devicePartial.subarray(end + 1);
  }
  deviceLines = deviceLines.slice(-KEPT_LINES);
}

function feedUsb() {
  if (!usbReady || outArmed === null || fromHost.length === 0) return;
  const bytes = Uint8Array.from(fromHost.splice(0, outArmed));
  outArmed = null;
  mcu.usbCtrl.endpointReadDone(cdc.outEndpoint, bytes);
  if (process.env.PICO_LINES) traceLines('rx', bytes);
}

// PICO_LINES=1: a `line` event for each whole line, when its last byte left
// the device (tx) or reached it (rx), for the benches' timing.
const partial = { tx: '', rx: '' };
function traceLines(dir, bytes) {
  partial[dir] += Buffer.from(bytes).toString('latin1');
  let end;
  while ((end = partial[dir].indexOf('\n')) >= 0) {
    emit({ ev: 'line', dir, text: partial[dir].slice(0, end).trimEnd() });
    partial[dir] = partial[dir].slice(end + 1);
  }
}

function unplug() {
  // The cable pulled: the host's port fails, and the device loses its host.
  if (client) client.destroy();
}

// ---- sensors -------------------------------------------------------------------

// matrix: {rows: [gpio], cols: [gpio], closed: Set("row,col")}, rows driven high
// one at a time, columns read with pull-downs; shiftreg: {load, spi, bytes}.
let sensors = null;
let pendingSensorChanges = []; // [{at, closed|bytes}], applied in simulated time
// Host bytes held for the next LED frame: [{data, after}], released `after` ns
// after its first bit (bytes that arrive while a frame is being written).
let injectOnFrame = [];
let pendingInjections = []; // [{at, data}], given to the USB port in simulated time

function wireSensors() {
  if (!sensors) return;
  if (sensors.kind === 'matrix') {
    for (const row of sensors.rows) {
      mcu.gpio[row].addListener(() => refreshColumns());
    }
    refreshColumns();
  } else {
    // 74HC165: SH/LD low latches the inputs; SPI then clocks them out byte by byte.
    let latched = [];
    let next = 0;
    mcu.gpio[sensors.load].addListener((state) => {
      if (mcu.gpio[sensors.load].outputValue === false) {
        latched = sensors.bytes.slice();
        next = 0;
      }
    });
    const spi = mcu.spi[sensors.spi];
    spi.onTransmit = () => {
      const value = next < latched.length ? latched[next] : sensors.serialIn;
      next += 1;
      spi.completeTransmit(value);
    };
  }
}

function refreshColumns() {
  if (!sensors || sensors.kind !== 'matrix') return;
  const high = new Set();
  for (const row of sensors.rows) {
    const pin = mcu.gpio[row];
    if (pin.outputEnable && pin.outputValue) high.add(row);
  }
  for (const col of sensors.cols) {
    let level = false;
    for (const row of high) {
      if (sensors.closed.has(`${row},${col}`)) level = true;
    }
    mcu.gpio[col].setInputValue(level);
  }
}

function applySensors(change) {
  if (sensors.kind === 'matrix') {
    sensors.closed = new Set(change.closed.map(([row, col]) => `${row},${col}`));
    refreshColumns();
  } else {
    sensors.bytes = change.bytes.slice();
  }
}

function applyDueInjections() {
  // Kept in order of time (holdBytes): looked at once an instruction.
  const now = mcu.clock.nanos + clockBase;
  if (pendingInjections[0].at > now) return;
  while (pendingInjections.length && pendingInjections[0].at <= now) {
    for (const byte of pendingInjections.shift().data) fromHost.push(byte);
  }
  feedUsb();
}

// When the next held change falls due (simulated ns, with clockBase).
function nextDue() {
  let due = Infinity;
  if (pendingSensorChanges.length) due = pendingSensorChanges[0].at;
  if (pendingInjections.length) due = Math.min(due, pendingInjections[0].at);
  return due;
}

function holdBytes(at, data) {
  pendingInjections.push({ at, data });
  pendingInjections.sort((a, b) => a.at - b.at);
}

function applyDueSensorChanges() {
  const now = mcu.clock.nanos + clockBase;
  while (pendingSensorChanges.length && pendingSensorChanges[0].at <= now) {
    const change = pendingSensorChanges.shift();
    applySensors(change);
    if (change.tag !== undefined) emit({ ev: 'applied', tag: change.tag });
  }
}

// ---- the WS2812 line ---------------------------------------------------------

let pio = { ns: 0, carry: 0 }; // the LED state machine's own time
// The LED machine is off or stalled on an empty FIFO, with no frame waiting
// for its latch: its time is the CPU's, and stepping it after every
// instruction (an eighth of the emulator's time) would change nothing.
let pioIdle = false;
let line = null; // the frame being received

function wireLeds() {
  line = { bits: [], highs: [], periods: [], rise: null, fall: null, level: false };
  mcu.gpio[ledPin].addListener(() => {
    const level = mcu.gpio[ledPin].outputValue;
    if (level === line.level) return;
    if (pioIdle) pio.ns = mcu.clock.nanos;
    line.level = level;
    const t = pio.ns + clockBase;
    if (level) {
      if (line.fall !== null && t - line.fall >= LATCH_NS) endFrame();
      if (line.rise !== null && line.bits.length) line.periods.push(t - line.rise);
      line.rise = t;
      if (line.bits.length === 0) {
        line.start = t;
        for (const held of injectOnFrame) holdBytes(t + held.after, held.data);
        injectOnFrame = [];
      }
    } else if (line.rise !== null) {
      const high = t - line.rise;
      line.highs.push(high);
      line.bits.push(high > 562 ? 1 : 0); // halfway between a '0' (250 ns) and a '1' (875 ns)
      line.fall = t;
    }
  });
}

function endFrame() {
  const { bits, highs, periods } = line;
  if (bits.length) {
    const words = [];
    for (let i = 0; i + 24 <= bits.length; i += 24) {
      let word = 0;
      for (let b = 0; b < 24; b++) word = word * 2 + bits[i + b];
      words.push(word);
    }
    const zero = highs.filter((_, i) => bits[i] === 0);
    const one = highs.filter((_, i) => bits[i] === 1);
    const range = (list) => (list.length ? [Math.min(...list), Math.max(...list)] : null);
    emit({
      ev: 'frame',
      words,
      bits: bits.length,
      start: line.start,
      end: line.fall,
      zero_high: range(zero),
      one_high: range(one),
      period: range(periods),
    });
  }
  line.bits = [];
  line.highs = [];
  line.periods = [];
  line.rise = null;
}

function ledBusy() {
  const machine = mcu.pio[0].machines[0];
  return machine.enabled && !(machine.waiting && machine.txFIFO.empty);
}

function stepPio(untilNs) {
  // Step PIO0 until the LED machine's time reaches the CPU's.
  const machine = mcu.pio[0].machines[0];
  if (!machine.enabled || (machine.waiting && machine.txFIFO.empty)) {
    // Off, or stalled on an empty FIFO (most of the time): only the CPU can
    // change that, so the machine's time just follows the CPU's.
    pio.ns = untilNs;
    if (line.bits.length) endFrameAfterLatch();
    pioIdle = line.bits.length === 0;
    return;
  }
  const divider = machine.clockDivInt + machine.clockDivFrac / 256;
  const cycleNs = (1e9 / mcu.clkSys) * divider;
  while (pio.ns < untilNs) {
    const before = machine.cycles;
    mcu.pio[0].step();
    const spent = machine.cycles - before;
    if (spent <= 0) {
      // Stalled (an empty FIFO): nothing happens on the line until the CPU acts.
      pio.ns = untilNs;
      break;
    }
    pio.ns += spent * cycleNs;
  }
  if (line.bits.length) endFrameAfterLatch();
}

function endFrameAfterLatch() {
  if (line.fall !== null && !line.level && pio.ns + clockBase - line.fall >= LATCH_NS) endFrame();
}

// ---- running -------------------------------------------------------------------

let pendingReset = false;
let resetBy = 'power'; // what the pending reset is: 'watchdog' keeps its scratch registers
let hung = false; // the CPU stopped (a `hang` command): only the clock and the peripherals run
const stats = { instructions: 0, idleNs: 0, started: Date.now() };
let lastTimeEvent = 0;

// One instruction, and the clock moved on by the cycles it took.
function execute(core, clock, cycleNs) {
  const pc = core.PC;
  if (pc === ROM_FLASH_ERASE || pc === ROM_FLASH_PROGRAM) flashCall();
  clock.tick(core.executeInstruction() * cycleNs);
}

function run() {
  if (pendingReset) {
    pendingReset = false;
    unplug();
    boot();
    emit({ ev: 'reset', by: resetBy });
  }
  feedUsb();
  const { clock, core } = mcu;
  const cycleNs = 1e9 / mcu.clkSys;
  let executed = 0;
  for (let i = 0; i < CHUNK_INSTRUCTIONS; i++) {
    if (core.waiting || hung) {
      // A chip asleep with no alarm set (MicroPython's REPL waits so for a
      // key) still lives in time: the clock moves on a millisecond at a time.
      let until = clock.nextAlarm ? clock.nanosToNextAlarm : TIME_EVENT_NS;
      if (pendingSensorChanges.length) {
        until = Math.min(until, pendingSensorChanges[0].at - clockBase - clock.nanos);
      }
      for (const held of pendingInjections) until = Math.min(until, held.at - clockBase - clock.nanos);
      if (ledBusy()) until = Math.min(until, PIO_BUSY_STEP_NS);
      until = Math.max(until, 0);
      clock.tick(until);
      i += until / cycleNs;
      stats.idleNs += until;
    } else if (pioIdle) {
      // The common case, the CPU running and the LEDs still: nothing but the
      // CPU needs stepping until it sleeps, writes to the PIO or a held
      // change falls due, so the looks after each instruction wait till then.
      const due = nextDue() - clockBase;
      const limit = CHUNK_INSTRUCTIONS - i;
      let n = 0;
      do {
        execute(core, clock, cycleNs);
        n += 1;
      } while (n < limit && !core.waiting && pioIdle && clock.nanos < due);
      executed += n;
      i += n - 1;
    } else {
      execute(core, clock, cycleNs);
      executed += 1;
    }
    if (!pioIdle && pio.ns < clock.nanos) stepPio(clock.nanos);
    if (pendingSensorChanges.length) applyDueSensorChanges();
    if (pendingInjections.length) applyDueInjections();
  }
  stats.instructions += executed;
  if (pioIdle) pio.ns = clock.nanos;
  const now = clock.nanos + clockBase;
  if (now - lastTimeEvent >= TIME_EVENT_NS) {
    lastTimeEvent = now;
    emit({ ev: 't' });
  }
  setImmediate(run);
}

// ---- commands ------------------------------------------------------------------

function command(message) {
  const now = mcu.clock.nanos + clockBase;
  switch (message.cmd) {
    case 'matrix':
      sensors = { kind: 'matrix', rows: message.rows, cols: message.cols, closed: new Set() };
      wireSensors();
      break;
    case 'shiftreg':
      sensors = { kind: 'shiftreg', load: message.load, spi: message.spi, bytes: message.bytes, serialIn: message.serial_in };
      wireSensors();
      break;
    case 'sensors': {
      // Changes at simulated times (absolute ns, or after the current time).
      for (const change of message.changes) {
        const at = change.at !== undefined ? change.at : now + (change.after || 0);
        pendingSensorChanges.push({ ...change, at });
      }
      pendingSensorChanges.sort((a, b) => a.at - b.at);
      applyDueSensorChanges();
      break;
    }
    case 'stats':
      emit({ ev: 'stats', clk: mcu.clkSys, instructions: stats.instructions, idle_ns: stats.idleNs, wall_ms: Date.now() - stats.started });
      break;
    case 'inject': {
      // Bytes as if the host had sent them (damaged lines, noise, a burst of
      // lines): now, at the simulated time `at` (ns, as the sensors' changes),
      // or `on_frame` ns after the next LED frame's first bit.
      const data = Buffer.from(message.data, 'base64');
      if (message.on_frame !== undefined) injectOnFrame.push({ data, after: message.on_frame });
      else if (message.at !== undefined) holdBytes(message.at, data);
      else for (const byte of data) fromHost.push(byte);
      break;
    }
    case 'damage':
      damage.lines += message.lines;
      break;
    case 'replay':
      // `lines` of the device's last lines delivered to the host again, in
      // order, leaving out the newest `skip` (so that an old one is last).
      if (client) {
        const end = deviceLines.length - (message.skip || 0);
        client.write(Buffer.concat(deviceLines.slice(Math.max(0, end - message.lines), end)));
      }
      break;
    case 'tohost':
      // Bytes as if the device had sent them.
      if (client) client.write(Buffer.from(message.data, 'base64'));
      break;
    case 'unplug':
      unplug();
      break;
    case 'reset':
      // Power cycled, or the RUN pin pulled low.
      pendingReset = true;
      resetBy = 'power';
      break;
    case 'hang':
      // The firmware stops running, as a lockup would stop it; the timers
      // and the watchdog go on.
      hung = true;
      emit({ ev: 'hung' });
      break;
    case 'quit':
      process.exit(0);
      break;
    default:
      emit({ ev: 'error', message: `unknown command ${message.cmd}` });
      return;
  }
  if (message.id !== undefined) emit({ ev: 'done', id: message.id });
}

boot();
server.listen(Number(argument('port', '0')), '127.0.0.1', () => {
  emit({ ev: 'ready', port: server.address().port });
  const input = createInterface({ input: process.stdin });
  input.on('line', (text) => {
    if (text.trim()) command(JSON.parse(text));
  });
  input.on('close', () => process.exit(0));
  setImmediate(run);
});
