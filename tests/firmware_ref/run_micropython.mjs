// Runs a Python file under MicroPython's WebAssembly port in Node, with hw/firmware on its path.
//   node run_micropython.mjs MICROPYTHON_MJS FIRMWARE_DIR SCRIPT
// (npm install @micropython/micropython-webassembly-pyscript gives micropython.mjs)
import fs from "fs";
import { pathToFileURL } from "url";

const [mjs, firmware, script] = process.argv.slice(2);
const { loadMicroPython } = await import(pathToFileURL(mjs).href);
let out = "";
const mp = await loadMicroPython({ stdout: (line) => { out += line + "\n"; }, stderr: (line) => { out += line + "\n"; } });
mp.FS.mkdir("/fw");
for (const name of fs.readdirSync(firmware)) {
  if (name.endsWith(".py") && name !== "main.py") mp.FS.writeFile("/fw/" + name, fs.readFileSync(firmware + "/" + name));
}
mp.FS.writeFile("/fw/_script.py", fs.readFileSync(script));
let code = 0;
try {
  mp.runPython("import sys\nsys.path.insert(0, '/fw')\nexec(open('/fw/_script.py').read())");
} catch (err) {
  out += "EXCEPTION " + err + "\n";
  code = 1;
}
process.stdout.write(out);
process.exit(code);
