// What a log says about the user's own ComfyUI: its version in every place it is printed, how it
// was started, and what argparse refused. The plan's launch lines and version gates rest on these.
import { describe, expect, it } from 'vitest';
import { factsOf } from '../helpers/kb.ts';

describe('ComfyUI version', () => {
  it.each([
    ['main.py’s startup line', 'Python version: 3.12.9\nComfyUI version: 0.3.33', '0.3.33'],
    ['the Manager’s banner (a commit after a tag)', "### Loading: ComfyUI-Manager (V3.38.1)\n### ComfyUI Version: v0.3.76-24-g3c845622 | Released on '2025-12-04'", '0.3.76'],
    ['the error report’s System Information', '## System Information\n- **ComfyUI Version:** v0.2.3-18-g518c0dc\n- **OS:** nt', '0.2.3'],
    ['the Desktop log (timestamped)', '[2026-04-02 21:14:06.946] ComfyUI version: 0.18.0', '0.18.0'],
    ['/system_stats', '{"system": {"os": "win32", "comfyui_version": "v0.25.1", "argv": ["main.py"]}, "devices": []}', '0.25.1'],
  ])('from %s', (_where, text, version) => {
    expect(factsOf(text).comfyuiVersion).toBe(version);
  });

  it('never takes the Desktop app’s own version for ComfyUI’s', () => {
    const f = factsOf('### App Version\n\nv0.8.36\n\n[Bug]: ComfyUI Desktop v0.8.36 not starting');
    expect(f.comfyuiVersion).toBeUndefined();
    expect(f.install).toBe('desktop');
  });
});

describe('how ComfyUI was started', () => {
  it('reads the portable .bat line echoed at the console prompt', () => {
    const f = factsOf('K:\\ComfyUI_windows_portable>.\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build --reserve-vram 2\nTotal VRAM 8188 MB, total RAM 32694 MB');
    expect(f.launchArgs).toEqual(['--windows-standalone-build', '--reserve-vram', '2']);
    expect(f.install).toBe('portable');
  });

  it('reads the error report’s Arguments line, and knows the portable build by its flag and embedded Python', () => {
    const f = factsOf('- **Arguments:** ComfyUI\\main.py --windows-standalone-build --enable-manager\n- **OS:** nt\n- **Embedded Python:** true');
    expect(f.launchArgs).toEqual(['--windows-standalone-build', '--enable-manager']);
    expect(f.install).toBe('portable');
  });

  it('reads a shell command up to its redirection', () => {
    expect(factsOf('user@box:~/ComfyUI$ python main.py --listen 0.0.0.0 --lowvram 2>&1 | tee log.txt').launchArgs).toEqual(['--listen', '0.0.0.0', '--lowvram']);
  });

  it('reads COMMANDLINE_ARGS, not the line that only names it', () => {
    const f = factsOf('set "COMMANDLINE_ARGS=--auto-launch --use-quad-cross-attention --reserve-vram 0.9"\n.\\zluda\\zluda.exe -- %PYTHON% main.py %COMMANDLINE_ARGS%');
    expect(f.launchArgs).toEqual(['--auto-launch', '--use-quad-cross-attention', '--reserve-vram', '0.9']);
  });

  it('reads /system_stats argv without the script, path values as hidden', () => {
    const f = factsOf('{"system": {"os": "win32", "argv": ["ComfyUI\\\\main.py", "--windows-standalone-build", "--output-directory", "*"], "embedded_python": true}, "devices": []}');
    expect(f.launchArgs).toEqual(['--windows-standalone-build', '--output-directory', '*']);
  });

  it('takes no launch line from a traceback frame in main.py', () => {
    expect(factsOf('  File "C:\\ComfyUI\\main.py", line 132, in <module>\n    import execution').launchArgs).toBeUndefined();
  });
});

describe('what argparse refused', () => {
  const usage = 'usage: main.py [-h] [--listen [IP]] [--port PORT]\n               [--lowvram | --novram | --cpu] [--reserve-vram RESERVE_VRAM]\n               [--disable-smart-memory]';

  it('names the unrecognized flags, and takes none of the usage block’s flags as launch flags', () => {
    const f = factsOf(`${usage}\nmain.py: error: unrecognized arguments: --vram-headroom 2 --normalvram`);
    expect(f.rejectedFlags).toEqual(['--vram-headroom', '--normalvram']);
    expect(f.flags).toEqual([]);
    expect(f.signatures).toContain('argparse_unrecognized');
  });

  it('names the flag of a mutually exclusive pair', () => {
    const f = factsOf(`${usage}\nmain.py: error: argument --novram: not allowed with argument --lowvram`);
    expect(f.rejectedFlags).toEqual(['--novram']);
    expect(f.signatures).toContain('argparse_conflict');
  });

  it('knows PyTorch’s expandable_segments warning', () => {
    const f = factsOf('[W1001 01:18:06.108184462 CUDAAllocatorConfig.h:28] Warning: expandable_segments not supported on this platform (function operator())');
    expect(f.signatures).toContain('expandable_segments_unsupported');
    expect(f.oom).toBeUndefined();
  });
});
