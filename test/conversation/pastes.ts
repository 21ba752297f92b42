// Inline pastes whose facts are plain to see, for the question the bot asks before the first step.
// Corpus samples may be read differently as the classifier improves; these cannot be.

/** A CUDA OOM with nothing else: no node, no stage, no GPU. */
export const BARE_OOM = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB';

/** ComfyUI's startup line naming the card: the platform is known, so no vendor question. */
export const NVIDIA_BANNER = 'Device: cuda:0 NVIDIA GeForce RTX 3060 : cudaMallocAsync';
export const ZLUDA_BANNER = 'Device: cuda:0 AMD Radeon RX 7900 XTX [ZLUDA] : native';

export const onNvidia = (text: string) => `${NVIDIA_BANNER}\n${text}`;

/** The error as ComfyUI reports it for a failing node: the stage is known. */
export const inNode = (node: string, text = BARE_OOM) => `Error occurred when executing ${node}:\n\n${text}`;
