// Fixed texts of the conversation, in both languages.
export const C = {
  buttons: {
    worked: { en: 'Worked', zh: '解决了' },
    failed: { en: 'Still failing', zh: '还是报错' },
    skip: { en: 'Skip', zh: '跳过' },
    newlog: { en: 'Paste a new log', zh: '粘贴新日志' },
    stop: { en: 'Stop', zh: '结束' },
    same: { en: 'Same error', zh: '同样的错误' },
    different: { en: 'A different error', zh: '换了一个错误' },
    couldNotApply: { en: "Couldn't apply it", zh: '没法照做' },
    showCurrent: { en: 'Show current step', zh: '显示当前步骤' },
    notMine: { en: "That's not my problem", zh: '不是我的问题' },
    openOwn: { en: 'Open my own case', zh: '单独开一个问题' },
    forgetConfirm: { en: 'Delete them', zh: '确认删除' },
    forgetCancel: { en: 'Cancel', zh: '取消' },
  },
  resolutionSummary: { en: 'Case summary: fixed by "{fixed}". Tried before it: {tried}.', zh: '问题小结：解决办法是「{fixed}」。之前尝试过：{tried}。' },
  nothingBefore: { en: 'nothing', zh: '无' },
  simplifiedNote: { en: 'I answer in Simplified Chinese.', zh: '说明：我只能用简体中文回复。' },
  threadTaken: {
    en: 'This thread already follows someone else’s case, and I follow one case per thread so the steps don’t get mixed up. Press the button to open your own case in a new thread.',
    zh: '这个子区已经在处理别人的问题了；为了不把步骤弄混，每个子区只跟进一个问题。点下面的按钮，在新的子区里单独开一个问题。',
  },
  alreadyOpened: { en: 'That message already has a case; it continues in its thread.', zh: '这条消息已经有对应的问题了，请在它的子区里继续。' },
  draftGone: { en: 'That button has expired or is not yours. Paste the log again with /comfyoom.', zh: '这个按钮已失效或不属于你。请用 /comfyoom 重新粘贴日志。' },
  forgetAsk: {
    en: 'This deletes your {n} case(s) on {platform} and every answer you gave, for good (stats keep anonymous counts only). Delete them?',
    zh: '这会永久删除你在 {platform} 上的 {n} 个问题记录和所有回答（统计只保留匿名计数）。确认删除吗？',
  },
  forgetNothing: { en: 'I have no cases of yours on {platform}.', zh: '我这里没有你在 {platform} 上的问题记录。' },
  forgetDone: { en: 'Deleted {n} case(s) and your answers. Nothing of them is left in my database.', zh: '已删除 {n} 个问题记录和你的回答，数据库里不再保留任何内容。' },
  forgetPending: {
    en: 'Deleted {n} case(s) and your answers. Another program is still reading an older copy of my database, so their last traces stay in its log until it finishes: I erase them then, without you doing anything.',
    zh: '已删除 {n} 个问题记录和你的回答。另一个程序仍在读取数据库的旧副本，所以它们的最后痕迹暂时留在数据库日志里，等它读完我会自动清除，你无需再操作。',
  },
  forgetCancelled: { en: 'Nothing was deleted.', zh: '没有删除任何内容。' },
  /** Watch mode's quiet offer under an error someone posted, and its button (only theirs, or a moderator's). */
  watchOffer: {
    en: 'That looks like a ComfyUI out-of-memory error. Want me to walk you through fixing it?',
    zh: '这看起来是 ComfyUI 的内存不足错误。需要我一步步帮你解决吗？',
  },
  watchButton: { en: 'Diagnose it', zh: '帮我诊断' },
  offerNotYours: { en: 'This offer is for the person who posted the error (or a moderator).', zh: '这个按钮是给发出报错的人（或管理员）用的。' },
  optedOut: {
    en: "This channel's admins turned me off here. Send me the log in a direct message, or use another channel.",
    zh: '管理员在这个频道关闭了我。请私信我发送日志，或换一个频道。',
  },
  storeDown: {
    en: 'My database failed just now, so this was not saved. Please try again in a few minutes; your case is kept as it was before.',
    zh: '我的数据库刚才出错了，所以这次操作没有保存。请过几分钟再试；你的问题记录保持在这之前的状态。',
  },
  badSince: { en: '"since" takes a number and w, d, h or m, for example 2w or 30d.', zh: '时间范围需要数字加 w、d、h 或 m，例如 2w 或 30d。' },
  questionTitle: { en: 'One question before the first step', zh: '开始之前先问一个问题' },
  questions: {
    stage: {
      why: {
        en: 'Your log does not show where the memory ran out, and the fixes differ by node.',
        zh: '日志里看不出显存是在哪一步耗尽的，而不同节点的解决办法不一样。',
      },
      ask: { en: 'Which node was running (outlined in red)?', zh: '出错时正在运行的是哪个节点（被红框标出的那个）？' },
    },
    vendor: {
      why: {
        en: 'The error is worded for CUDA, which AMD cards under ZLUDA print too, and their fixes differ.',
        zh: '这个报错用的是 CUDA 的说法，而 AMD 显卡在 ZLUDA 下也会这样报错，两者的解决办法不一样。',
      },
      ask: { en: 'NVIDIA, or AMD (ROCm/ZLUDA)?', zh: '你的显卡是 NVIDIA，还是 AMD（ROCm/ZLUDA）？' },
    },
  },
  choices: {
    nvidia: { en: 'NVIDIA', zh: 'NVIDIA（英伟达）' },
    amd: { en: 'AMD (ROCm/ZLUDA)', zh: 'AMD（ROCm/ZLUDA）' },
    sampling: { en: 'Sampler (KSampler, SamplerCustom, WanVideoSampler...)', zh: '采样器（KSampler、SamplerCustom、WanVideoSampler…）' },
    vae: { en: 'VAE Decode/Encode', zh: 'VAE 解码/编码' },
    loader: { en: 'A loader (checkpoint, UNet, CLIP)', zh: '加载器（checkpoint、UNet、CLIP）' },
    other: { en: 'An upscaler, detailer or other node', zh: '放大、修脸或其他节点' },
    unknown: { en: "I don't know", zh: '不知道' },
  },
  typeNodeHint: {
    en: 'You can also type the node’s name as ComfyUI shows it, for example KSampler or VAEDecode.',
    zh: '也可以直接输入 ComfyUI 里显示的节点名称，例如 KSampler 或 VAEDecode。',
  },
  clarified: { en: 'Got it: {answer}.', zh: '明白了：{answer}。' },
  clarifiedReplanned: { en: 'Got it: {answer}. So this is: {entry}. Here are the fixes for that.', zh: '明白了：{answer}。那么问题是：{entry}。下面是对应的修复步骤。' },
  clarifiedUnknown: { en: 'No problem: I will go by what the log shows.', zh: '没关系，我就按日志里的信息来。' },
  rediagnosed: { en: 'That log tells me more, so the question is settled:', zh: '这份日志提供了更多信息，刚才的问题不用回答了：' },
  rediagnosedDoubted: { en: 'Thanks. From this log, the diagnosis is:', zh: '谢谢。根据这份日志，新的诊断是：' },
  misdiagnosed: {
    en: 'Sorry, I read your log wrong. I will diagnose it again and count this case apart, so the wrong diagnosis does not teach me.',
    zh: '抱歉，我看错了你的日志。我会重新诊断，并把这次记为误诊，错误的诊断不会计入我的经验。',
  },
  misdiagnosedAskLog: {
    en: 'Paste the whole console log, from the line where ComfyUI starts to the error (as a .txt file if it is long), or a screenshot of the error.',
    zh: '请粘贴完整的控制台日志：从 ComfyUI 启动的那一行一直到报错（太长就存成 .txt 文件上传），或者发一张报错截图。',
  },
  unknownEntry: { en: 'There is no kb entry "{entry}". Entries whose names come closest: {entries}.', zh: 'kb 里没有“{entry}”这个条目。名称最接近的条目：{entries}。' },
  relabelled: { en: 'Relabelled: this case now counts as "{entry}" in stats and learning.', zh: '已更正：这个问题在统计和学习中改记为「{entry}」。' },
  typedUnknown: { en: 'I could not read {text} as an answer. Choose one of the answers above.', zh: '无法把 {text} 当作回答。请选择上面的一个答案。' },
  currentQuestion: { en: 'The current question is: {question}', zh: '当前的问题是：{question}' },
  stepOf: { en: 'Step {n} of {total}', zh: '第 {n} 步（共 {total} 步）' },
  /** A step past the ones planned up front (UP_FRONT). */
  moreIdeaOf: { en: 'One more idea ({n} of {total})', zh: '更多办法（第 {n} 个，共 {total} 个）' },
  askResult: { en: 'Try only this step, run the workflow again, then tell me how it went.', zh: '只做这一步，重新运行工作流，然后告诉我结果。' },
  howToStart: {
    en: 'Hi! Paste the error from your ComfyUI console here (the lines around the error, or the whole log as a .txt file), or a screenshot of it, and I will walk you through the fixes one step at a time.',
    zh: '你好！把 ComfyUI 控制台里的报错贴在这里（报错前后的几行，或把完整日志存成 .txt 文件上传），或者发一张截图，我会一步一步带你排查。',
  },
  takeYourTime: { en: 'Take your time: tell me how it went once you have tried it.', zh: '不着急：试过之后告诉我结果。' },
  askOutcome: {
    en: 'Did "{step}" fix it? Press a button, or say it in words: "it worked", "still OOM", "a different error", "I couldn\'t do it", "skip".',
    zh: '“{step}”解决问题了吗？请按按钮，或直接说：“解决了”“还是显存不足”“换了个错误”“没法照做”“跳过”。',
  },
  askReason: { en: 'What happened when you tried it?', zh: '照做之后是什么情况？' },
  askLog: { en: 'Paste the new error or console log (the last 30–50 lines are enough).', zh: '请粘贴新的报错或控制台日志（最后 30–50 行就够了）。' },
  resolvedConfirmed: { en: 'Great, fixed by: {step}.', zh: '太好了，解决办法是：{step}。' },
  /** What a confirmed fix does for others, said only where it does it (see Learner.record). */
  recorded: {
    adapts: {
      en: 'I recorded it: confirmed fixes decide which step others with this error are shown first.',
      zh: '已记录下来：确认有效的办法决定了之后遇到同样错误的人先看到哪一步。',
    },
    soon: {
      en: 'I recorded it: once {needed} people have confirmed a fix for this error ({confirmed} so far), confirmed fixes decide which step others are shown first.',
      zh: '已记录下来：等这个错误累计有 {needed} 人确认解决（目前 {confirmed} 人），确认有效的办法将决定之后的人先看到哪一步。',
    },
    stats: { en: 'I recorded it for the moderators’ statistics.', zh: '已记录到管理员的统计中。' },
  },
  /** Shown with a step once enough people tried it (POLICY.showRateAfter): confirmed fixes only. */
  fixRate: { en: 'Fixed it for {share}% of {tried} people with this error.', zh: '遇到这个错误并试过这一步的 {tried} 人中，{share}% 确认解决了。' },
  fixRateAssumed: {
    en: '{assumed} more got past the error, judging by their next log (not counted above).',
    zh: '另有 {assumed} 人从之后的日志看也过了这一关（未计入上面的比例）。',
  },
  resolvedAssumed: {
    en: 'That is no longer an out-of-memory error, so "{step}" got you past it. Here is what the new error means:',
    zh: '新的日志已经不是内存不足了，说明「{step}」起了作用。下面是新错误的含义：',
  },
  notApplied: {
    en: 'That log shows "{step}" did not take effect, so I recorded it as "couldn\'t apply it", not as a failure. Here is the next step.',
    zh: '这份日志显示「{step}」没有生效，所以记为“没法照做”，而不是“没用”。下面是下一步。',
  },
  sameFailure: { en: 'Still the same failure after "{step}". On to the next step.', zh: '做完「{step}」后还是同样的错误。继续下一步。' },
  progress: {
    en: 'Progress: "{step}" got past the first failure. The new one is different: {entry}. Switching to its fixes.',
    zh: '有进展：「{step}」解决了原来的问题。现在是另一个问题：{entry}。改用对应的修复步骤。',
  },
  escalated: {
    en: "I have no more steps for this one. Here is a summary for the helpers in this channel; they can take it from here.",
    zh: '我已经没有更多步骤了。下面是给本频道热心人的摘要，他们可以接着帮你。',
  },
  escalatedTerminal: {
    en: 'I have no more steps for this one. Here is a summary of everything tried: post it in a ComfyUI help channel or a GitHub issue, where people can take it from here.',
    zh: '我已经没有更多步骤了。下面是已尝试内容的摘要：把它发到 ComfyUI 求助频道或 GitHub issue，那里的人可以接着帮你。',
  },
  cancelled: { en: 'Stopped. Paste a new log any time to start again.', zh: '已结束。随时粘贴新的日志即可重新开始。' },
  reminder: {
    en: 'Still there? Did "{step}" help? Press a button, or say it in words ("it worked", "still OOM", "skip"). Without an answer, this case will close soon.',
    zh: '还在吗？“{step}”有用吗？请按按钮，或直接说（“解决了”“还是显存不足”“跳过”）。如果一直没有回复，这个问题很快会自动关闭。',
  },
  reminderOther: {
    en: 'Still there? This case is waiting for your answer above. Without one, it will close soon.',
    zh: '还在吗？这个问题还在等你回答上面的提问。如果一直没有回复，它很快会自动关闭。',
  },
  abandoned: { en: 'This case was closed after a long time without an answer. Paste the log again to restart.', zh: '这个问题长时间没有回复，已自动关闭。重新粘贴日志即可再次开始。' },
  currentStep: { en: 'The case is at {place}: {step}.', zh: '当前进度：{place}：{step}。' },
  rejected: {
    not_owner: { en: 'Only the person who opened this case (or a moderator) can answer its buttons.', zh: '只有发起这个问题的人（或管理员）才能点这些按钮。' },
    not_moderator: { en: 'Only moderators can relabel a case.', zh: '只有管理员才能更正问题的诊断。' },
    stale: { en: 'That button belongs to an earlier question, so I ignored it.', zh: '这个按钮属于之前的问题，已忽略。' },
    closed: { en: 'This case is already closed. Paste a new log to start a new one.', zh: '这个问题已经结束。粘贴新的日志即可开始新的诊断。' },
    unexpected: { en: 'I could not find that case. Paste the log again to start over.', zh: '找不到这个问题记录。请重新粘贴日志。' },
  },
  answers: {
    worked: { en: 'worked', zh: '解决了' },
    failed: { en: 'still failing', zh: '还是报错' },
    skipped: { en: 'skipped', zh: '跳过' },
  },
  reasons: {
    same: { en: 'same error', zh: '同样的错误' },
    different: { en: 'a different error', zh: '换了一个错误' },
    could_not_apply: { en: "couldn't apply it", zh: '没法照做' },
  },
  caseLabel: { en: 'case', zh: '问题' },
  diagnosisLabel: { en: 'Diagnosis', zh: '诊断' },
  triedLabel: { en: 'Tried', zh: '已尝试' },
  emptyPaste: {
    en: 'Paste the error or the console log (text, a .txt/.log file, or a screenshot) and I will take it from there.',
    zh: '请粘贴报错或控制台日志（文字、.txt/.log 文件或截图），我来帮你看。',
  },
  fileProblems: {
    too_big: { en: '{file} is too large to read (8 MB at most); attach the last few hundred lines instead.', zh: '{file} 太大，无法读取（最多 8 MB）；请只附上最后几百行。' },
    binary: { en: '{file} is not a text log.', zh: '{file} 不是文本日志。' },
    unsupported: { en: '{file} is not a file type I read (.txt, .log, .json, .md, a .zip or .gz of them, or a screenshot).', zh: '{file} 不是我能读取的文件类型（.txt、.log、.json、.md，它们的 .zip 或 .gz 压缩包，或截图）。' },
    too_many: { en: '{file} was not read: at most 5 files per message.', zh: '{file} 未读取：每条消息最多 5 个文件。' },
    unreadable: { en: '{file} could not be downloaded; please attach it again.', zh: '{file} 下载失败，请重新上传。' },
    archive_bomb: {
      en: '{file} unpacks to far more than a log (16 MB in all, 100 times its packed size at most): attach the log itself, or its last few hundred lines.',
      zh: '{file} 解压后远超一份日志的大小（总共最多 16 MB，最多为压缩大小的 100 倍）：请直接上传日志本身，或其最后几百行。',
    },
    archive_empty: { en: '{file} holds no text log (.txt, .log, .json) I could read.', zh: '{file} 里没有我能读取的文本日志（.txt、.log、.json）。' },
    archive_broken: { en: '{file} is not an archive I can open (damaged, or not really a .zip/.gz); attach the log itself.', zh: '{file} 无法打开（已损坏，或并不是真正的 .zip/.gz）；请直接上传日志本身。' },
    link_unreadable: {
      en: 'I could not read {file} (not found, not text, or too slow to answer); open it and paste the text here, or attach the log as a .txt file.',
      zh: '无法读取 {file}（找不到、不是文本或响应太慢）；请打开它并把文字贴在这里，或把日志存成 .txt 文件上传。',
    },
    link_encrypted: {
      en: '{file} is encrypted and only opens in a browser; open it and paste the text here.',
      zh: '{file} 是加密的，只能在浏览器里打开；请打开后把文字贴在这里。',
    },
    image: { en: '{file} is a screenshot, and reading screenshots is off here; please paste the text.', zh: '{file} 是截图，这里没有开启截图识别；请粘贴文字。' },
    too_many_pixels: { en: '{file} has too many pixels to read (40 megapixels at most); crop it to the error.', zh: '{file} 像素太多（最多 4000 万像素），请裁剪到报错部分。' },
    ocr_timeout: { en: 'Reading {file} took too long; crop the screenshot to the error, or paste the text.', zh: '识别 {file} 超时；请把截图裁剪到报错部分，或直接粘贴文字。' },
    ocr_failed: { en: 'I could not read the text in {file}; please paste the text.', zh: '无法识别 {file} 中的文字，请直接粘贴文字。' },
  },
  rateLimited: {
    en: 'You are sending logs faster than I can help; please wait a minute and try again.',
    zh: '你发送日志的速度太快了，请稍等一分钟再试。',
  },
  imageRateLimited: {
    en: 'Reading screenshots takes a while; please send at most 3 a minute, or paste the text.',
    zh: '识别截图比较耗时；每分钟最多发送 3 张，或者直接粘贴文字。',
  },
  ocrDoubt: {
    en: 'I read this from your screenshot, but I am not sure enough to diagnose it:',
    zh: '这是我从截图里读到的内容，但我没有把握据此诊断：',
  },
  ocrDoubtAsk: {
    en: 'Is that right? Please paste the error as text (or attach the log file) so I do not guess. (OCR confidence {confidence}%)',
    zh: '读得对吗？请以文字形式粘贴报错（或上传日志文件），以免我猜错。（识别置信度 {confidence}%）',
  },
  notALog: {
    en: 'I found no error in that. To continue, paste the new console output (or use the buttons).',
    zh: '这段内容里没有报错。要继续，请粘贴新的控制台输出（或使用按钮）。',
  },
  noErrorToOpen: {
    en: "I found no error in that, so I haven't opened a case. Paste the console output from when it failed (the lines with the error), a .txt/.log file, or a screenshot.",
    zh: '这段内容里没有报错，所以没有创建问题单。请粘贴出错时的控制台输出（带报错的那几行）、.txt/.log 文件或截图。',
  },
  binaryPaste: { en: 'That looks like a binary file, not a log. Paste the console text or attach a .txt/.log file.', zh: '这看起来是二进制文件，不是日志。请粘贴控制台文字，或上传 .txt/.log 文件。' },
} as const;
