// Error families that unseen real logs exposed. Each test is a family, written the way PyTorch,
// ComfyUI, the OS or the application prints it; none is a corpus sample.
import { describe, expect, it } from 'vitest';
import { classify, factsOf, kb } from '../helpers/kb.ts';
import { planSteps } from '../../src/plan/plan.ts';

const oom = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a total capacity of 8.00 GiB of which 0 bytes is free.';

describe('weights being moved are model loading', () => {
  it("reads torch's Module.to / _apply / convert frames as a load", () => {
    const paste = [
      'Traceback (most recent call last):',
      '  File "/home/u/ComfyUI/custom_nodes/some-pack/nodes.py", line 88, in run',
      '    self.model.to("cuda")',
      '  File "/home/u/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1340, in to',
      '    return self._apply(convert)',
      '  File "/home/u/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 900, in _apply',
      '    module._apply(fn)',
      '  File "/home/u/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1326, in convert',
      '    return t.to(device, dtype if t.is_floating_point() or t.is_complex() else None, non_blocking)',
      oom,
    ].join('\n');
    expect(classify(paste).category).toBe('oom_gpu_model_load');
  });

  it("reads a quantized layer's own _apply (GGUF) and A1111's load_model as a load", () => {
    const gguf = ['  File "D:\\ComfyUI\\custom_nodes\\ComfyUI-GGUF\\ops.py", line 61, in _apply', '    return super()._apply(fn)', oom].join('\n');
    expect(factsOf(gguf).stage).toBe('model_load');
    const a1111 = [
      'loading stable diffusion model: OutOfMemoryError',
      'Traceback (most recent call last):',
      '  File "C:\\sd\\webui\\modules\\sd_models.py", line 748, in load_model',
      '    sd_model.to(shared.device)',
      oom,
    ].join('\n');
    expect(factsOf(a1111).stage).toBe('model_load');
  });

  it('takes "failed to load" wordings around the error, and a loader line as the last thing started', () => {
    expect(factsOf('** model sd-1.5 could not be loaded: CUDA out of memory. Tried to allocate 16.00 MiB').stage).toBe('model_load');
    const timeline = ['Requested to load AutoencodingEngine', 'loaded completely 9.5 159.8 True', 'Loading models from a folder is deprecated', '!!! Exception during processing !!! CUDA error: out of memory'].join('\n');
    expect(factsOf(timeline).stage).toBe('model_load');
  });

  it('reads a download or shard-loading bar as loading, not sampling', () => {
    const paste = ['Loading checkpoint shards:  25%|██▌       | 1/4 [00:03<00:09,  3.2s/it]', oom].join('\n');
    expect(factsOf(paste).stage).toBe('model_load');
  });
});

describe('the right stage reading wins', () => {
  it('lets the glob that spells out most of a node name decide (SamplerCustom*, not SAM*)', () => {
    expect(factsOf('- **Node Type:** SamplerCustomAdvanced\n- **Exception Message:** Allocation on device').stage).toBe('sampling');
    expect(factsOf('- **Node Type:** SAMDetectorCombined\n- **Exception Message:** Allocation on device').stage).toBe('detector');
  });

  it('reads the function inside a custom node, not the name of its folder', () => {
    const paste = [
      'Traceback (most recent call last):',
      '  File "/x/ComfyUI/custom_nodes/seedvr2_videoupscaler/src/models/video_vae_v3/modules/attn_video_vae.py", line 901, in decode',
      '    h = self.decoder(z)',
      oom,
    ].join('\n');
    expect(factsOf(paste).stage).toBe('vae_decode');
    // With nothing inside telling, the folder's name is the last hint.
    const byFolder = ['  File "/x/ComfyUI/custom_nodes/ComfyUI_UltimateSDUpscale/utils.py", line 12, in run', '    x = y * 2', oom].join('\n');
    expect(factsOf(byFolder)).toMatchObject({ stage: 'upscale', evidence: { stage: { source: 'custom node folder' } } });
  });

  it('reads a text-encoder frame even when a VAE was requested before it', () => {
    const paste = [
      'Requested to load WanVAE',
      'loaded completely 6000 242 True',
      '!!! Exception during processing !!! Allocation on device',
      'Traceback (most recent call last):',
      '  File "/x/ComfyUI/nodes.py", line 70, in encode',
      '    return (clip.encode_from_tokens_scheduled(tokens), )',
      '  File "/x/ComfyUI/comfy/sd.py", line 170, in encode_from_tokens_scheduled',
      '    pooled_dict = self.encode_from_tokens(tokens, return_pooled=return_pooled)',
      'torch.OutOfMemoryError: Allocation on device',
    ].join('\n');
    expect(factsOf(paste).stage).toBe('text_encoder');
  });

  it('gives sampling its own words, and takes a last code line indented by one space', () => {
    expect(factsOf('TiledSampler: sampling failed (OutOfMemoryError: Allocation on device 0 would exceed allowed memory.)').stage).toBe('sampling');
    expect(factsOf(' torch.empty((out_features, in_features), **factory_kwargs)\ntorch.OutOfMemoryError: Allocation on device').stage).toBe('model_load');
  });

  it('reads only the traceback that ends in the error, not a chained or earlier one', () => {
    const paste = [
      'Traceback (most recent call last):',
      '  File "/x/ComfyUI/comfy/sd.py", line 700, in decode',
      '    out = self.first_stage_model.decode(samples)',
      oom,
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      'Traceback (most recent call last):',
      '  File "/x/ComfyUI/custom_nodes/pack/retry.py", line 20, in upscale_retry',
      '    return upscale(x)',
      'RuntimeError: retry failed',
    ].join('\n');
    expect(factsOf(paste).stage).toBe('vae_decode');
  });

  it('does not take a background thread for the stage of the run (A1111 memory monitor)', () => {
    const paste = [
      ' 40%|████      | 8/20 [00:04<00:06,  1.9it/s]',
      'Exception in thread MemMon:',
      'Traceback (most recent call last):',
      '  File "C:\\sd\\webui\\modules\\memmon.py", line 53, in run',
      '    free, total = self.cuda_mem_get_info()',
      'RuntimeError: CUDA error: out of memory',
    ].join('\n');
    expect(factsOf(paste).stage).toBeUndefined();
    expect(classify(paste).category).toBe('oom_gpu_other');
  });

  it("reads a dialog's title above the same message pasted before the console's traceback", () => {
    const paste = [
      'HyVideoDecode',
      'Allocation on device ',
      'This error means you ran out of memory on your GPU.',
      '',
      'Max allocated memory: max_memory=7.217 GB',
      'TeaCache skipped 15 cond steps',
      '!!! Exception during processing !!! Allocation on device',
      'Traceback (most recent call last):',
    ].join('\n');
    expect(factsOf(paste)).toMatchObject({ node: 'HyVideoDecode', stage: 'vae_decode' });
    // torch.compile wraps the message in a line of its own.
    expect(factsOf("WanVideoSampler\nbackend='inductor' raised:\nOutOfMemoryError: Allocation on device").stage).toBe('sampling');
  });

  it('reads the code line above the carets Python 3.11 prints', () => {
    const paste = ['    x = torch.nn.functional.scaled_dot_product_attention(q, k, v)', '        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^', oom].join('\n');
    expect(factsOf(paste).stage).toBe('sampling');
  });

  it("takes an earlier traceback of the failure when the error's own was cut off", () => {
    const paste = [
      '  File "/x/ComfyUI/comfy/ldm/flux/layers.py", line 248, in forward',
      '    attn = attention(q, k, v, pe=pe)',
      'torch.OutOfMemoryError: Allocation on device',
      'Prompt executed in 296.92 seconds',
      'got prompt',
      'Requested to load Flux',
      '!!! Exception during processing !!! Allocation on device',
      'Traceback (most recent call last):',
    ].join('\n');
    expect(factsOf(paste).stage).toBe('sampling');
  });

  it('picks the last run of a paste that holds two', () => {
    const paste = [
      '[ERROR] Got an OOM, unloading all loaded models.',
      'Prompt executed in 70.11 seconds',
      'Requested to load LTXAV',
      ' 33%|███▎      | 1/3 [00:04<00:09,  4.58s/it]',
      'KSampler: Allocation on device 0 would exceed allowed memory. (out of memory)',
    ].join('\n');
    expect(factsOf(paste).evidence.oom?.line).toBe(4);
  });
});

describe('the user names the node in their own words', () => {
  it('takes one node named in prose above the traceback as the stage', () => {
    const paste = ['Every time the VAEDecode node runs on my 3060 I get this error:', '', oom].join('\n');
    expect(factsOf(paste)).toMatchObject({ stage: 'vae_decode', evidence: { stage: { source: 'your words' } } });
    expect(factsOf(['我在用 VAE解码 的时候爆显存了，怎么办', oom].join('\n')).stage).toBe('vae_decode');
    expect(factsOf(["I'm trying to load models with the streamlit app and it runs out of memory on flux-schnell.", oom].join('\n')).stage).toBe('model_load');
  });

  it('ignores prose that names several stages, and does not take log lines for prose', () => {
    expect(factsOf(['My workflow is KSampler then VAEDecode then UltimateSDUpscale, nothing special.', oom].join('\n')).stage).toBeUndefined();
    // ComfyUI's own warning right before the OOM: the tiled retry of a VAE decode failed too.
    const retry = factsOf(['Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding.', oom].join('\n'));
    expect(retry.stage).toBe('vae_decode');
    expect(retry.evidence.stage?.source).not.toBe('your words');
  });
});

describe('Linux kill notices', () => {
  it.each([
    ['a padded job table line', './run.sh: line 42:     8 Killed                  python3 main.py --listen'],
    ['a bash job line', '[1]+  Killed                  python main.py'],
    ['zsh', 'zsh: killed     python main.py'],
    ['earlyoom', 'earlyoom[812]: sending SIGTERM to process 4242 uid 1000 "python3": badness 912, VmRSS 28123 MiB'],
    ['systemd-oomd', 'systemd-oomd[640]: Killed /user.slice/user-1000.slice/app.slice/comfy.scope due to memory pressure for /user.slice being 92.1% > 80.0% for > 20s with reclaim activity'],
    ['a container exit', 'comfyui-1 exited with code 137'],
    ['a container exit told in the present', 'the comfyui container exits with code 137 after a while'],
    ["a supervisor's exit code", 'Exit Code: 137'],
    ['a kill told from the console', 'then it just says Killed in the terminal and stops'],
    ['a kill told in Chinese', '加载模型的时候内存一直涨，然后进程被杀了'],
    ['a pod that returns error code 137', 'the pod shuts down and returns error code 137 with no other description'],
    ['a shell kill notice quoted in a sentence', 'No error in log, just `bash: killed     python3 main.py --listen`'],
    ["zsh's job notice with its number left on the bar's line", 'Loading checkpoint shards:  50%|█████     | 2/4 [00:03<00:03,  1.90s/it][2]\n48211 killed     python3 main.py --lowvram'],
    ['torchrun', 'exitcode  : -9 (pid: 1234)'],
    ['a zsh job line with its pid', '[1]    52429 killed     python scripts/txt2img.py --prompt  --plms'],
    ['Killed glued to a progress bar', 'Loading checkpoint shards:  75%|███████▌  | 3/4 [01:34<00:31, 31.54s/it]Killed'],
  ])('%s is the OOM killer', (_name, line) => {
    const d = classify(`Requested to load Flux\n${line}`);
    expect(d.category).toBe('oom_cpu_ram');
    expect(d.entry.id).toBe('oom-killer');
  });

  it('does not take a SIGTERM of sibling processes for the OOM killer', () => {
    expect(factsOf('WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 45737 closing signal SIGTERM').oom).toBeUndefined();
  });
});

describe('out-of-memory wordings outside PyTorch', () => {
  it.each([
    ['Intel PI', 'RuntimeError: Native API failed. Native API returns: -5 (PI_ERROR_OUT_OF_RESOURCES) -5 (PI_ERROR_OUT_OF_RESOURCES)', 'xpu'],
    ['Intel UR', 'RuntimeError: UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY', 'xpu'],
    ['onnxruntime', '[E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero status code returned while running Conv node. Status Message: bfc_arena.cc:376 onnxruntime::BFCArena::AllocateRawInternal(size_t, bool) Failed to allocate memory for requested buffer of size 2359296', 'cuda'],
    ['TensorRT', '[TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::140] Error Code 2: OutOfMemory (no further information)', 'cuda'],
    ['the CUDA driver API', 'RuntimeError: CUDA driver error: out of memory', 'cuda'],
    ['Triton', 'RuntimeError: Triton Error [CUDA]: out of memory', 'cuda'],
    ['Wan2GP', 'gradio.exceptions.Error: The generation of the video has encountered an error: it is likely that you have unsufficient VRAM and you should therefore reduce the video resolution or its number of frames.', 'cuda'],
    ['SwarmUI', '[Warning] Your system memory usage exceeded 98.2% just before the backend process failed. This might indicate a memory overload.', 'ram'],
    ["Wan2GP's RAM alert", 'The generation of the video has encountered an error: it is likely that you have unsufficient RAM and / or Reserved RAM allocation should be reduced', 'ram'],
    ["Python's MemoryError as A1111 names it", 'loading stable diffusion model: MemoryError', 'ram'],
    ['cumm/spconv', 'cuda failed with error 2 out of memory. use CUDA_LAUNCH_BLOCKING=1 to get correct traceback.', 'cuda'],
    ["ComfyUI's dynamic VRAM through a MemoryError", 'MemoryError: VBAR allocation failed', 'cuda'],
    ['Metal', 'Error: command buffer exited with error status. (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)', 'mps'],
    ['a Japanese page file', 'OSError: [WinError 1455] ページング ファイルが小さすぎるため、この操作を完了できません。', 'ram'],
  ])('%s', (_name, line, kind) => {
    expect(factsOf(line).oom).toBe(kind);
  });
});

describe('memory figures that prove nothing', () => {
  it('keeps an AMD OOM with plenty "free" an AMD OOM', () => {
    const d = classify('Device: cuda:0 AMD Radeon RX 7900 XTX [ZLUDA] : native\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.98 GiB of which 20.01 GiB is free.');
    expect(d.category).toBe('oom_amd_hip');
    const hip = classify('torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 15.98 GiB of which 13.02 GiB is free.');
    expect(hip.category).toBe('oom_amd_hip');
  });

  it('drops a free figure larger than the device', () => {
    const f = factsOf('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 8.00 GiB of which 17179869184.00 GiB is free.');
    expect(f.freeGb).toBeUndefined();
    expect(f.requestFitsFree).toBeUndefined();
    expect(classify('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 8.00 GiB of which 17179869184.00 GiB is free.').category).toBe('oom_gpu_other');
  });
});

describe('AMD behind CUDA wording', () => {
  it.each([
    ['a gfx target', 'AMD arch: gfx1100'],
    ['the HSA override', 'export HSA_OVERRIDE_GFX_VERSION=10.3.0'],
    ['MIOpen', 'MIOpen(HIP): Warning [SQLiteBase] Missing system database file: gfx1030_30.kdb'],
    ["ZLUDA's runtime", 'Could not load library amdhip64.dll'],
    ['a Radeon named in prose', "I'm using a RX580 8GB with --lowvram"],
  ])('%s makes a CUDA-worded OOM an AMD one', (_name, line) => {
    expect(classify(`${line}\n${oom}`).category).toBe('oom_amd_hip');
  });

  it('leaves CUDA wording with no sign of AMD alone', () => {
    expect(classify(oom).facts.gpuVendor).toBeUndefined();
    expect(classify(oom).category).toBe('oom_gpu_other');
  });
});

describe('the words people and other programs use for it', () => {
  it.each([
    ['a prose OOM names the stage too', 'When there is only 16G VRAM, an OOM error occurs in the VAE encoding stage when using a resolution of 1024.', 'oom_gpu_vae'],
    ['on an AMD card', 'I got pass the sampling step and got OOM at the VAE decode stage.\nI am using a 7900xtx in Linux.', 'oom_amd_hip'],
    ['on a Mac', 'mac studio m1 ultra 128gb - node Vae Decode - OOM error at the end of a 15 hour generation', 'oom_mps'],
    ['on Intel', 'It crashes during the KSampler step with `torch.OutOfMemoryError`.\n3. Install PyTorch Nightly with XPU support.', 'oom_gpu_other'],
    ['in Chinese', 'VAE解码的时候爆显存了，4060 8G', 'oom_gpu_vae'],
    ['ZLUDA quoted as cuda: out of memory', 'i wanted to enable zluda, and for some reason it says cuda: out of memory, while i have 8gb of vram', 'oom_amd_hip'],
    ["ggml's ROCm backend", '[ERROR] ggml_extend.hpp:70   - ROCm error: out of memory', 'oom_amd_hip'],
    ['Vulkan', 'iree/hal/drivers/vulkan/vma_allocator.cc:693: RESOURCE_EXHAUSTED; VK_ERROR_OUT_OF_DEVICE_MEMORY; vmaCreateBuffer\nFound device AMD Radeon RX 6700 XT.', 'oom_amd_hip'],
    ['TensorFlow on DirectML', 'Resource exhausted: OOM when allocating tensor with shape[16,128,98,98] and type float on /job:localhost/replica:0/task:0/device:DML:0 by allocator DmlAllocator', 'oom_directml'],
    ["TensorFlow's ROCm allocator", '2020-03-11 17:17:25.172727: E tensorflow/stream_executor/rocm/rocm_driver.cc:600] failed to allocate 3.08G (3304535552 bytes) from device: HIP_ERROR_OutOfMemory', 'oom_amd_hip'],
    ["ComfyUI's dynamic VRAM running out of weight slots", 'MemoryError: VBAR OOM', 'oom_gpu_other'],
    ["DirectML's message retyped with the number masked", 'could not allocate tensor with 48948xxxx bytes. there is not enogh gpu video memory', 'oom_directml'],
    ["Python's MemoryError printed by its repr", 'Error: MemoryError()', 'oom_cpu_ram'],
    ["ComfyUI's frontend in Chinese, under the node's title", 'CogVideoSampler(齿轮视频采样器)\n设备上的分配', 'oom_gpu_sampling'],
    ["ComfyUI Desktop's own message", '"Not enough GPU memory. Try reducing image resolution or batch size and run again"', 'oom_gpu_other'],
    ["NumPy's words for an array that does not fit in RAM", '!!! Exception during processing !!! cannot allocate array memory', 'oom_cpu_ram'],
    ["torch-directml's allocator", '[W D:\\a\\_work\\1\\s\\pytorch-directml-plugin\\torch_directml\\csrc\\engine\\dml_heap_allocator.cc:120] DML allocator out of memory!', 'oom_directml'],
    ["VideoHelperSuite's RAM guard", 'Error occurred when executing VHS_LoadVideo: Memory limit hit after loading 1347 frames. Stopping execution.', 'oom_cpu_ram'],
    ['a kill told in words', 'when the final checkpoint shards were being loaded, the terminal was killed.', 'oom_cpu_ram'],
    ["A1111's split attention refusing before it samples", 'RuntimeError: Not enough memory, use lower resolution (max approx. 1280x1280). Need: 5.2GB free, Have:2.1GB free', 'oom_gpu_sampling'],
    ['video memory said as it is often translated from 显存', 'Graphics memory overflow when running the upscaler on a 3060', 'oom_gpu_other'],
    ['not enough VRAM, at the decode', 'not enough VRAM when decoding the video, 8GB card', 'oom_gpu_vae'],
    ['the decode stage named in words', 'In the decoding stage it needs far more memory.\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 9.00 GiB.', 'oom_gpu_vae'],
    ['running out of VRAM, in words', 'My 3060 always runs out of VRAM at the Ultimate SD Upscale node.', 'oom_gpu_other'],
    ['"out of VRAM errors"', 'Since the last update I get out of VRAM errors with Flux on 12 GB', 'oom_gpu_other'],
    ['an out-of-memory error said with its raiser', 'Every second run throws "Out-of-Memory" errors on my 4070.', 'oom_gpu_other'],
    ['an OOM the sentence gives a cause for', 'Loading the model is what causes the OOM.', 'oom_gpu_model_load'],
    ['OOM said as a verb', 'It works for 10 steps, then it OOMs right when the high-noise model hands over.', 'oom_gpu_other'],
    ['an OOM with the stage before it', 'I keep hitting a KSampler OOM with SDXL at 1536', 'oom_gpu_sampling'],
    ['the sampling stage named in words', 'During the denoising stage the GPU memory is not enough.', 'oom_gpu_sampling'],
    ['how much video memory a run went past', 'This workflow ends up exceeding 24GB of video memory after the second pass', 'oom_gpu_other'],
    ["DirectML's message paraphrased", 'on DirectML it keeps saying it cannot allocate tensor with that many bytes', 'oom_directml'],
    ["ggml's CUDA backend", 'ggml_backend_cuda_buffer_type_alloc_buffer: allocating 9216.00 MiB on device 0: cudaMalloc failed: out of memory', 'oom_gpu_other'],
    ["ggml's Vulkan backend", 'ggml_vulkan: Device memory allocation of size 4294967296 failed.', 'oom_gpu_other'],
    ["a node's own check of the free VRAM", 'RuntimeError: Upscale failed: insufficient free VRAM: 0.4 GB available, about 3 GB needed', 'oom_gpu_other'],
    ['the program giving out of memory, in words', 'SDXL at 1024 on my 3060 keeps giving out of memory. Any idea?', 'oom_gpu_other'],
    ['OOM as a bare verb after its subject', 'Whatever I load from the 14B set, I always OOM before the first step.', 'oom_gpu_other'],
    ['a kill told with who did it', 'RAM and swap fill up while the second model loads, until the kernel kills ComfyUI.', 'oom_cpu_ram'],
    ["old PyTorch's THC wording", 'RuntimeError: cuda runtime error (2) : out of memory at /opt/conda/conda-bld/pytorch_1518244421288/work/torch/lib/THC/generic/THCStorage.cu:58', 'oom_gpu_other'],
    ["ncnn's Vulkan allocator", 'realesrgan-ncnn-vulkan.exe -i in.png -o out.png -s 4\nvkAllocateMemory failed -2\nvkAllocateMemory failed -2', 'oom_gpu_other'],
    ["ggml's ROCm build in CUDA words", 'CUDA error: out of memory\n  current device: 0, in function alloc at ggml-cuda.cu:233\n  hipMalloc((void **) &ptr, look_ahead_size)', 'oom_amd_hip'],
    ['a kill told with no subject', 'I added 16 GB of swap and ran the loader again. Still got killed.', 'oom_cpu_ram'],
    ['a kill quoted after the last line shown', 'I see `Loading model from v1-5-pruned.ckpt` followed by `killed`, even at 256x256.', 'oom_cpu_ram'],
    ["Colab's own message", 'pipe = FluxPipeline.from_pretrained(model_id, torch_dtype=torch.bfloat16)\n\nYour session crashed after using all available RAM.', 'oom_cpu_ram'],
    ["Kaggle's own message", 'Your notebook tried to allocate more memory than is available. It has restarted.', 'oom_cpu_ram'],
    ['RAM filling up, in words', 'The LoRA cell always crashes: it runs until the RAM is full.', 'oom_cpu_ram'],
    ['RAM taken whole, in words', 'Starting the server just keeps taking up all the 25 GB of RAM and then the machine freezes.', 'oom_cpu_ram'],
    ['RAM maxed out, in words', 'Any LTX workflow maxes out the system RAM and Comfy gets terminated.', 'oom_cpu_ram'],
    ['the whole machine out of memory, in words', 'the container kept growing until my whole system was out of memory', 'oom_cpu_ram'],
    ["onnxruntime's DirectML provider", "[E:onnxruntime:, sequential_executor.cc:494 onnxruntime::ExecuteKernel] Non-zero status code returned while running Conv node. Status Message: C:\\onnxruntime\\core\\providers\\dml\\DmlExecutionProvider\\src\\DmlCommittedResourceAllocator.cpp(22)\\onnxruntime_pybind11_state.pyd!00007FF8: Exception(2) tid(1f34) 8007000E Not enough memory resources are available to complete this operation.", 'oom_directml'],
    ["Windows' commit limit as an NTSTATUS", 'The application was unable to start correctly (0xC000012D). Click OK to close the application.', 'oom_cpu_ram'],
    ['the OOM killer named in words', 'the run dies and dmesg only shows the OOM killer took python', 'oom_cpu_ram'],
    ['what the program said, in words', 'When I upscale past 2k it says out of memory and stops', 'oom_gpu_other'],
    ['what it failed of, on ROCm', 'HSA_OVERRIDE_GFX_VERSION=10.3.0 python main.py\nthe first image starts, then fails due to out of memory', 'oom_amd_hip'],
    ['the CUDA wording hyphenated', 'after the update Flux stays loaded and gives me cuda-out-of-memory error on every second run', 'oom_gpu_other'],
    ["a shell's kill line in another locale", './webui.sh: Zeile 254:  31337 Killed                  "${python_cmd}" -u launch.py', 'oom_cpu_ram'],
    ['trying to load, in words', 'Trying to load the 22 GB checkpoint on my 3090:\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 50.00 MiB', 'oom_gpu_model_load'],
    ["the end of PyTorch's MPS message alone", 'Generation failed: ...disable upper limit for memory allocations (may cause system failure).', 'oom_mps'],
    ["the middle of PyTorch's MPS message", 'RuntimeError: ... Tried to allocate 768.00 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to', 'oom_mps'],
    ['system RAM running out, in Chinese', '跑视频工作流超过10秒就会爆内存，然后系统卡死，32G内存', 'oom_cpu_ram'],
    ['VRAM running out, in Chinese', '跑视频工作流超过10秒就会爆显存，4070 12G', 'oom_gpu_other'],
    ["chaiNNer's own message", 'An error occurred in a PyTorch Upscale Image node:\n\nA VRAM out-of-memory error has occurred. Please try using a more extreme tiling mode.', 'oom_gpu_other'],
    ["an older ggml build's source line", 'With -ngl 4 I get complete garbage, and larger values give `ggml-cuda.cu:5048: out of memory`.', 'oom_gpu_other'],
    ["MSVC's words for a failed allocation, through Python", 'Traceback (most recent call last):\nMemoryError: bad allocation', 'oom_cpu_ram'],
    ['an MPS array over 4 GiB', "MPSNDArray.mm:788: failed assertion `[MPSNDArray initWithDevice:descriptor:] Error: total bytes of NDArray > 2**32'", 'oom_mps'],
    ["PaddlePaddle's words", 'Out of memory error on GPU 0. Cannot allocate 558.000000MB memory on GPU 0, 7.999695GB memory has been allocated and available memory is only 0.000000B.', 'oom_gpu_other'],
    ["Caffe's check on the CUDA runtime", 'F0412 10:41:07.512 syncedmem.cpp:56] Check failed: error == cudaSuccess (2 vs. 0)  out of memory', 'oom_gpu_other'],
    ["a C runtime's page file error", 'runtime: VirtualAlloc of 1048576 bytes failed with errno=1455\nfatal error: out of memory', 'oom_cpu_ram'],
    ["the shell's kill notice in a Chinese locale", 'qwen-vl-utils using torchvision to read video.\n已杀死', 'oom_cpu_ram'],
    ["a runner's check before it loads", 'Error: model requires more system memory (48.2 GiB) than is available (27.9 GiB)', 'oom_cpu_ram'],
    ["zsh's kill notice after a progress bar with no newline", 'Loading checkpoint shards:  50%|█████     | 2/4 [00:09<00:09,  4.51s/it][1]    20911 killed     python app.py', 'oom_cpu_ram'],
  ])('%s', (_name, paste, category) => {
    expect(classify(paste).category).toBe(category);
  });

  it.each([
    ["Python's faulthandler", 'Windows fatal exception: access violation\n\nThread 0x00002a5c (most recent call first):\n  File "C:\\ComfyUI\\comfy\\utils.py", line 88 in load_torch_file'],
    ["ComfyUI Desktop's crash message", 'ComfyUI crashed due to a memory access violation (exit code 3221225477 / 0xC0000005). You can restart it below.'],
    ['the same in Chinese', 'ComfyUI 因内存访问冲突而崩溃（退出代码 3221225477 / 0xC0000005）。'],
    ["Desktop's log, the code alone", '[2025-05-15 10:28:55.140] [error] Python process exited with code 3221225477 and signal null'],
    ["a client's log", 'Server process terminated with code 3221225477'],
    ['the signed code a batch file prints', 'ComfyUI exited with errorlevel -1073741819'],
  ])('reads an access violation named as such or by its code (%s) as a native crash, not a crash of memory', (_name, paste) => {
    const d = classify(paste);
    expect(d.entry.id).toBe('native-crash');
    expect(d.category).toBe('not_oom');
  });

  it('reads the code after a load as a crash while loading, whose plan gives Windows more room after the update, and a named OOM as the OOM', () => {
    const d = classify('Requested to load Flux\nloaded partially 5000.0 4999.9 0\nProcess exited with code 3221225477');
    expect(d.entry.id).toBe('native-crash-on-load');
    expect(d.category).toBe('not_oom');
    expect(planSteps(d.entry, { ...d.facts, os: 'windows' }, kb).steps.map((s) => s.id).slice(0, 2)).toEqual(['update-or-rollback', 'pagefile-increase']);
    expect(classify(`${oom}\nWindows fatal exception: access violation`).category).toBe('oom_gpu_other');
  });

  it('still reads a console that closed after a load with no code as a silent crash of memory', () => {
    expect(classify('Requested to load Flux\nloaded partially 5000.0 4999.9 0\nPress any key to continue . . .').entry.id).toBe('silent-crash-on-load');
  });

  it('does not take the MPS watermark variable set at launch for an out-of-memory error', () => {
    expect(classify('PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 python main.py --force-fp16\nTotal VRAM 32768 MB, total RAM 32768 MB\nSet vram state to: SHARED').category).toBe('not_oom');
  });

  it("does not take MPS's other failed assertions for running out of memory", () => {
    for (const assertion of [
      "MPSNDArray.mm:706: failed assertion `[MPSTemporaryNDArray initWithDevice:descriptor:] Error: NDArray dimension length > INT_MAX'",
      "MPSNDArray.mm:794: failed assertion `[MPSNDArray, initWithBuffer:descriptor:] Error: buffer is not large enough. Must be 600 bytes'",
    ])
      expect(classify(assertion).category, assertion).toBe('not_oom');
  });

  it("reads ROCm's words for a PyTorch build with no code for the GPU as that, not a crash of memory", () => {
    expect(classify('RuntimeError: HIP error: hipErrorNoBinaryForGpu: Unable to find code object for all current devices!').entry.id).toBe('no-kernel-image');
  });

  it('takes a crash whose GPU error is quoted above "Aborted" and "Press any key" for that error, not a silent crash of memory', () => {
    const paste = ['"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"', 'run.sh: line 82: 65171 Aborted                 python main.py --listen', 'Press any key to continue'].join('\n');
    expect(classify(paste).entry.id).toBe('no-kernel-image');
    expect(classify(['Loading model from sd_xl_base_1.0.safetensors', 'Press any key to continue'].join('\n')).entry.id).toBe('silent-crash-on-load');
  });

  it("does not take a condition, a recovery or someone's guess for an OOM", () => {
    for (const words of [
      'The web UI does not recover when the resolution is raised enough to run out of VRAM.',
      'out of memory error, emptying cache and trying again',
      'scaled_dot_product_attention OOMed: switched to slice attention',
      'forge crashes with every gguf quant, looks like out of memory crash',
      'SDXL finished without any OOM this time',
      'A Tiled VAE Decode before Save Image would let the workflow complete without an OOM on 8 GB.',
      'Please add a tiled option to avoid an OOM with 4K inputs.',
      'RAM and VRAM are maxed out but there is no "OOM Error", the queue just stops.',
      'Error: list index out of range\nIf you encounter CUDA out of memory, try to set --tile with a smaller number.',
      'RIFE takes longer than I expect. Is it supposed to use system RAM and CPU?',
    ])
      expect(classify(words).category, words).toBe('not_oom');
  });

  it("takes the failure, not Real-ESRGAN's advice printed under it, for what ran out", () => {
    const paste = 'Error [enforce fail at CPUAllocator.cpp:67] . DefaultCPUAllocator: can\'t allocate memory: you tried to allocate 264896512 bytes. Error code 12 (Cannot allocate memory)\nIf you encounter CUDA out of memory, try to set --tile with a smaller number.';
    expect(classify(paste).category).toBe('oom_cpu_ram');
  });

  it('still takes an OOM told on another line of a paste that also wishes for none', () => {
    expect(classify('I want the upscale to finish without OOM.\nRight now it gives me out of memory errors at 4x.').category).toBe('oom_gpu_other');
  });

  it('does not take a question about memory for an OOM', () => {
    expect(classify('RuntimeError: CUDA error: an illegal memory access was encountered. Is this caused by insufficient graphics memory?').category).toBe('not_oom');
    expect(factsOf('Is the video memory not enough?').oom).toBeUndefined();
  });

  it("does not take a counter or a flag named oom for an OOM", () => {
    expect(classify("gc stats: {'oom': 0, 'collections': 12}\nRuntimeError: mat1 and mat2 shapes cannot be multiplied (77x768 and 2048x320)").category).toBe('not_oom');
    expect(factsOf('oom_score_adj set to 0').oom).toBeUndefined();
  });
});

describe('pastes reshaped on the way', () => {
  it('reads a log glued to its code fence, and still drops a fence with only a language tag', () => {
    expect(classify('Log:\n```torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.12 GiB (GPU 0; 8.00 GiB total capacity; 0 bytes free)```').category).toBe('oom_gpu_other');
    expect(classify('```python\nRuntimeError: mat1 and mat2 shapes cannot be multiplied (77x768 and 2048x320)\n```').category).toBe('not_oom');
  });

  it("reads a docker compose log through its service prefix", () => {
    const paste = [
      '2024-11-22 19:24:48 comfyui  |   File "/usr/local/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1160, in convert',
      '2024-11-22 19:24:48 comfyui  |     return t.to(',
      '2024-11-22 19:24:48 comfyui  | torch.OutOfMemoryError: Allocation on device ',
    ].join('\n');
    expect(classify(paste).category).toBe('oom_gpu_model_load');
  });

  it('takes a log whose line breaks were lost apart again', () => {
    const paste = 'Requested to load WAN21 loaded partially; 5167.08 MB usable, 5167.08 MB loaded, 4633.39 MB offloaded, lowvram patches: 0 Attempting to release mmap (452) !!! Exception during processing !!! CUDA error: out of memory Search for `cudaErrorMemoryAllocation`';
    expect(factsOf(paste)).toMatchObject({ oom: 'cuda', stage: 'model_load' });
  });
});

describe('more stage readings', () => {
  it.each([
    ["a video wrapper's ImageEncode node is a VAE encode", '- **Node Type:** MochiImageEncode\n- **Exception Message:** Allocation on device', 'vae_encode'],
    ['a denoising step in any pipeline is sampling', '    noise_pred_cond = self.model(\ntorch.OutOfMemoryError: CUDA out of memory.', 'sampling'],
    ["accelerate placing a model is loading", '  File "/x/venv/lib/site-packages/accelerate/accelerator.py", line 741, in _prepare_one\n    return self.prepare_model(obj, device_placement=device_placement)\nRuntimeError: CUDA out of memory.', 'model_load'],
    ['the user names the text encoder', '* The T5 text encoder always loads on CUDA:0.\n* The first run fails with a `CUDA out of memory` error during embedding.', 'text_encoder'],
    ['a quantized model initializing is loading', '[info] Initializing QuantizedFluxModel\n!!! Exception during processing !!! CUDA error: out of memory (at Tensor.h:88)', 'model_load'],
    ["a loader named Load…ControlNet is loading weights", 'Error occurred when executing LoadFluxControlNet:\n\nAllocation on device', 'model_load'],
    ["Forge moving its UNet to the GPU, the error ending Forge's unfinished line", '[Memory Management] Target: KModel, Free GPU: 5120.00 MB, Model Require: 9800.00 MB, Previously Loaded: 0.00 MB, Inference Require: 1024.00 MB, Remaining: -5704.00 MB, torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 50.00 MiB.', 'model_load'],
    ["Forge moving its text encoder", '[Memory Management] Target: JointTextEncoder, Free GPU: 900.00 MB, Model Require: 5000.00 MB, Previously Loaded: 0.00 MB, Inference Require: 1024.00 MB, Remaining: -5124.00 MB\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 40.00 MiB.', 'text_encoder'],
    ["Forge moving its VAE", '[Memory Management] Target: IntegratedAutoencoderKL, Free GPU: 300.00 MB, Model Require: 159.87 MB, Previously Loaded: 0.00 MB, Inference Require: 2038.40 MB, Remaining: -1898.27 MB, Moving model(s) has taken 0.36 seconds\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.', 'vae_decode'],
    ['the user says the model will not load', "The flux checkpoint won't load on my 8GB card, it stops with this:\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 90.00 MiB.", 'model_load'],
    ['a sampler node whose innermost frames load its model', ['Error occurred when executing KSamplerAdvanced:', '', 'Allocation on device', '', '  File "/opt/ComfyUI/comfy/sample.py", line 43, in sample', '    real_model, positive_copy, negative_copy, noise_mask, models = prepare_sampling(model, noise.shape, positive, negative, noise_mask)', '  File "/opt/ComfyUI/comfy/model_management.py", line 527, in load_models_gpu', '    cur_loaded_model = loaded_model.model_load(lowvram_model_memory, force_patch_weights=force_patch_weights)'].join('\n'), 'model_load'],
    ['a sampler node whose innermost frames sample', ['Error occurred when executing KSamplerAdvanced:', '', 'Allocation on device', '', '  File "/opt/ComfyUI/comfy/model_management.py", line 527, in load_models_gpu', '  File "/opt/ComfyUI/comfy/samplers.py", line 229, in calc_cond_batch', '    output = model.apply_model(input_x, timestep_, **c).chunk(batch_chunks)'].join('\n'), 'sampling'],
    ['a diffusion upscaler node whose innermost frames sample', ['Error occurred when executing UltimateSDUpscale:', '', 'Allocation on device', '', '  File "/opt/ComfyUI/comfy/samplers.py", line 229, in calc_cond_batch', '    output = model.apply_model(input_x, timestep_, **c).chunk(batch_chunks)'].join('\n'), 'sampling'],
    ["a pipeline's decode_latents call, in a copy with an empty line after every line", ['!!! Exception during processing !!! Allocation on device', '', '  File "/app/custom_nodes/Fun/pipeline/pipeline_wan_fun.py", line 880, in __call__', '', '    video = self.decode_latents(latents)'].join('\n'), 'vae_decode'],
    ['a paste whose first frame was cut before its path ended, from torchrun', ['Wan2.1/wan/modules/vae.py", line 32, in forward', '[rank0]:     x = torch.cat([cache_x, x], dim=2)', '[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.65 GiB.'].join('\n'), 'vae_decode'],
    ["the LDM codebase's decode_first_stage (A1111, the *Crafter models)", ['  File "/sd/modules/sd_samplers_common.py", line 68, in samples_to_images_tensor', '    x_sample = model.decode_first_stage(sample.to(model.first_stage_model.dtype))', 'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB'].join('\n'), 'vae_decode'],
    ['a loader whose name goes on past "Loader"', 'Error occurred when executing SeedVR2LoaderLowVRAM:\n\nAllocation on device', 'model_load'],
    ["a node's display name split by a space, in the user's words", 'It crashes at the Load WanVideoModel step every time.\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 90.00 MiB.', 'model_load'],
    ['超分 (super-resolution) in Chinese words is an upscale', '超分到 4K 的时候爆显存了\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.00 GiB.', 'upscale'],
    ["the *Crafter models' get_latent_z is the VAE encode", ['Error occurred when executing DynamiCrafterI2V:', '', 'Allocation on device', '', 'File "C:\\ComfyUI\\custom_nodes\\ComfyUI-DynamiCrafterWrapper\\nodes.py", line 310, in process', 'z = get_latent_z(self.model, videos)'].join('\n'), 'vae_encode'],
    ['a stage named on the error line itself, by words that elsewhere start it', "VAE decoding shows 'Allocation on device' since the update", 'vae_decode'],
    ["diffusers' inpainting pipelines encode the masked image in prepare_mask_latents", ['  File "/app/custom_nodes/tryon/pipeline.py", line 1630, in __call__', '    mask, masked_image_latents = self.prepare_mask_latents(', 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.'].join('\n'), 'vae_encode'],
    ["ComfyUI's samplers load their models in prepare_sampling", ['Error occurred when executing SamplerCustomAdvanced:', '', 'Allocation on device', '', '  File "/opt/ComfyUI/comfy/samplers.py", line 706, in sample', '    self.inner_model, self.conds, self.loaded_models = comfy.sampler_helpers.prepare_sampling(self.model_patcher, noise.shape, self.conds)'].join('\n'), 'model_load'],
    ["a bar with no label after the VAE was requested is the decode's, finished or not", ['Requested to load WanVAE', 'loaded completely 20638.3 242.1 True', '100%|██████████| 81/81 [00:32<00:00,  2.51it/s]', '!!! Exception during processing !!! Allocation on device'].join('\n'), 'vae_decode'],
    ['of two nodes named on the error line, the one nearest the failure', 'It is heartbreaking to see the Sampler finish after 20 minutes, and then CogVideo Decode fail with "Allocation on device".', 'vae_decode'],
    ["the model patcher's ERROR line for a weight it could not patch", 'ERROR lora diffusion_model.input_blocks.4.1.proj_in.weight CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 6.00 GiB of which 0 bytes is free.', 'model_load'],
    ['the decode told in a sentence', 'Trying to decode the latents of all 81 frames at once fails:\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 12.00 GiB.', 'vae_decode'],
    ["the Tiled VAE extension's decoder queue", ['[Tiled VAE]: split to 6x4 = 24 tiles. Optimal tile size 960x960, original tile size 960x960', '[Tiled VAE]: Executing Decoder Task Queue:  41%|████      | 503/1224 [00:05<00:08, 88.10it/s]', 'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.50 GiB'].join('\n'), 'vae_decode'],
    ['... and its encoder queue', ['[Tiled VAE]: Executing Encoder Task Queue:  12%|█         | 98/816 [00:01<00:09, 77.02it/s]', 'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.20 GiB'].join('\n'), 'vae_encode'],
    ['the load named in words as "model loading"', 'I get a torch.cuda.OutOfMemoryError during model loading on 4x 24 GB.\nCUDA out of memory. Tried to allocate 90.00 MiB.', 'model_load'],
    ["an application's load_models function, deep in the traceback", ['It fails with every profile:', '  File "/app/run.py", line 880, in generate', '    model, offloader = load_models(model_type, **kwargs)', '  File "/app/run.py", line 310, in load_models', '    offloader = offload.setup(pipe, budget=budget, pinned=True, compile=False)', '  File "/venv/lib/site-packages/offload/core.py", line 3650, in setup', '    return apply(pipe, verbose=verbose, **kwargs)', '  File "/venv/lib/site-packages/offload/core.py", line 3545, in apply', '    torch.cuda.empty_cache()', '  File "/venv/lib/site-packages/torch/cuda/memory.py", line 222, in empty_cache', '    torch._C._cuda_emptyCache()', 'RuntimeError: CUDA error: out of memory'].join('\n'), 'model_load'],
    ["kohya's trainers caching the dataset's latents with the VAE", ['  File "/content/sd_scripts/train_network.py", line 446, in train', '    train_dataset_group.new_cache_latents(vae, accelerator)', '  File "/content/sd_scripts/library/train_util.py", line 1084, in submit_batch', '    caching_strategy.cache_batch_latents(model, batch, cond.flip_aug)', '  File "/content/sd_scripts/library/strategy_sd.py", line 168, in cache_batch_latents', '    latents = model.encode(img_tensors).latent_dist.sample()', 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB.'].join('\n'), 'vae_encode'],
    ['an IP-Adapter loader too', '- **Node Type:** LoadFluxIPAdapter\n- **Exception Message:** Allocation on device', 'model_load'],
  ])('%s', (_name, paste, stage) => {
    expect(factsOf(paste).stage).toBe(stage);
  });

  it('does not take a load the log says is done for what was running, as with a finished bar', () => {
    const loading = ['Loading checkpoint from /models/instantir/adapter.pt', '!!! Exception during processing !!! Allocation on device'];
    expect(factsOf(loading.join('\n')).stage).toBe('model_load');
    expect(factsOf([loading[0], 'loading checkpoint finished.', loading[1]].join('\n')).stage).toBeUndefined();
  });
});

describe('confidence', () => {
  it('is sure of a known non-OOM wording with no exception line (argparse, kernel faults), unsure where nothing failed', () => {
    expect(classify('usage: main.py [-h]\nmain.py: error: unrecognized arguments: --vram-headroom 2').confidence).toBeGreaterThanOrEqual(0.7);
    expect(classify('Memory access fault by GPU node-1 (Agent handle: 0x5555) on address 0x7f00. Reason: Page not present or supervisor privilege.').confidence).toBeGreaterThanOrEqual(0.7);
    expect(classify('all good, it finished').confidence).toBeLessThanOrEqual(0.5);
  });
});
