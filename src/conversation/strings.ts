// Fixed texts of the conversation, in every language.
export const C = {
  buttons: {
    worked: { en: 'Worked', zh: '解决了', ja: '解決した', ko: '해결됐어요', 'zh-Hant': '解決了' },
    failed: { en: 'Still failing', zh: '还是报错', ja: 'まだ失敗する', ko: '여전히 실패해요', 'zh-Hant': '還是報錯' },
    skip: { en: 'Skip', zh: '跳过', ja: 'スキップ', ko: '건너뛰기', 'zh-Hant': '跳過' },
    newlog: { en: 'Paste a new log', zh: '粘贴新日志', ja: '新しいログを貼る', ko: '새 로그 붙여 넣기', 'zh-Hant': '貼上新日誌' },
    stop: { en: 'Stop', zh: '结束', ja: '終了', ko: '중단', 'zh-Hant': '結束' },
    same: { en: 'Same error', zh: '同样的错误', ja: '同じエラー', ko: '같은 오류', 'zh-Hant': '同樣的錯誤' },
    different: { en: 'A different error', zh: '换了一个错误', ja: '別のエラー', ko: '다른 오류', 'zh-Hant': '換了一個錯誤' },
    couldNotApply: { en: "Couldn't apply it", zh: '没法照做', ja: '試せなかった', ko: '적용할 수 없었어요', 'zh-Hant': '沒法照做' },
    showCurrent: { en: 'Show current step', zh: '显示当前步骤', ja: '現在のステップを表示', ko: '현재 단계 보기', 'zh-Hant': '顯示當前步驟' },
    notMine: { en: "That's not my problem", zh: '不是我的问题', ja: '私の問題と違う', ko: '제 문제가 아니에요', 'zh-Hant': '不是我的問題' },
    openOwn: { en: 'Open my own case', zh: '单独开一个问题', ja: '自分のケースを開く', ko: '내 케이스 따로 열기', 'zh-Hant': '單獨開一個問題' },
    forgetConfirm: { en: 'Delete them', zh: '确认删除', ja: '削除する', ko: '삭제하기', 'zh-Hant': '確認刪除' },
    forgetCancel: { en: 'Cancel', zh: '取消', ja: 'キャンセル', ko: '취소', 'zh-Hant': '取消' },
  },
  resolutionSummary: { en: 'Case summary: fixed by "{fixed}". Tried before it: {tried}.', zh: '问题小结：解决办法是「{fixed}」。之前尝试过：{tried}。', ja: 'ケースのまとめ：「{fixed}」で解決。それ以前に試したこと：{tried}。', ko: '케이스 요약: 해결한 단계는 "{fixed}". 그 전에 시도한 것: {tried}.', 'zh-Hant': '問題小結：解決辦法是「{fixed}」。之前嘗試過：{tried}。' },
  nothingBefore: { en: 'nothing', zh: '无', ja: 'なし', ko: '없음', 'zh-Hant': '無' },
  threadTaken: {
    en: 'This thread already follows someone else’s case, and I follow one case per thread so the steps don’t get mixed up. Press the button to open your own case in a new thread.',
    zh: '这个子区已经在处理别人的问题了；为了不把步骤弄混，每个子区只跟进一个问题。点下面的按钮，在新的子区里单独开一个问题。', ja: 'このスレッドでは、すでに別の方のケースを扱っています。ステップが混ざらないよう、1 つのスレッドでは 1 つのケースだけを扱います。ボタンを押して、新しいスレッドであなたのケースを開いてください。', ko: '이 스레드는 이미 다른 분의 케이스를 진행하고 있어요. 단계가 섞이지 않도록 스레드 하나에 케이스 하나만 진행해요. 버튼을 눌러 새 스레드에서 내 케이스를 따로 여세요.', 'zh-Hant': '這個討論串已經在處理別人的問題了；為了不把步驟弄混，每個討論串只跟進一個問題。點下面的按鈕，在新的討論串裡單獨開一個問題。',
  },
  alreadyOpened: { en: 'That message already has a case; it continues in its thread.', zh: '这条消息已经有对应的问题了，请在它的子区里继续。', ja: 'そのメッセージにはすでにケースがあります。そのスレッドで続けてください。', ko: '그 메시지에는 이미 케이스가 있어요. 해당 스레드에서 계속 진행돼요.', 'zh-Hant': '這條訊息已經有對應的問題了，請在它的討論串裡繼續。' },
  draftGone: { en: 'That button has expired or is not yours. Paste the log again with /comfyoom.', zh: '这个按钮已失效或不属于你。请用 /comfyoom 重新粘贴日志。', ja: 'そのボタンは期限切れか、あなた用のものではありません。/comfyoom でもう一度ログを貼り付けてください。', ko: '이 버튼은 만료됐거나 본인의 버튼이 아니에요. /comfyoom으로 로그를 다시 붙여 넣어 주세요.', 'zh-Hant': '這個按鈕已失效或不屬於你。請用 /comfyoom 重新貼上日誌。' },
  forgetAsk: {
    en: 'This deletes your {n} case(s) on {platform} and every answer you gave, for good (stats keep anonymous counts only). Delete them?',
    zh: '这会永久删除你在 {platform} 上的 {n} 个问题记录和所有回答（统计只保留匿名计数）。确认删除吗？', ja: '{platform} でのあなたのケース {n} 件と、これまでの回答をすべて完全に削除します（統計には匿名の件数だけが残ります）。削除しますか？', ko: '{platform}에 저장된 케이스 {n}개와 지금까지 하신 모든 답변이 영구적으로 삭제돼요(통계에는 익명 집계만 남아요). 삭제할까요?', 'zh-Hant': '這會永久刪除你在 {platform} 上的 {n} 個問題記錄和所有回答（統計只保留匿名計數）。確認刪除嗎？',
  },
  forgetNothing: { en: 'I have no cases of yours on {platform}.', zh: '我这里没有你在 {platform} 上的问题记录。', ja: '{platform} でのあなたのケースはありません。', ko: '{platform}에 저장된 케이스가 없어요.', 'zh-Hant': '我這裡沒有你在 {platform} 上的問題記錄。' },
  forgetDone: { en: 'Deleted {n} case(s) and your answers. Nothing of them is left in my database.', zh: '已删除 {n} 个问题记录和你的回答，数据库里不再保留任何内容。', ja: 'ケース {n} 件とあなたの回答を削除しました。データベースには何も残っていません。', ko: '케이스 {n}개와 답변을 삭제했어요. 데이터베이스에 남은 내용은 없어요.', 'zh-Hant': '已刪除 {n} 個問題記錄和你的回答，資料庫裡不再保留任何內容。' },
  forgetPending: {
    en: 'Deleted {n} case(s) and your answers. Another program is still reading an older copy of my database, so their last traces stay in its log until it finishes: I erase them then, without you doing anything.',
    zh: '已删除 {n} 个问题记录和你的回答。另一个程序仍在读取数据库的旧副本，所以它们的最后痕迹暂时留在数据库日志里，等它读完我会自动清除，你无需再操作。', ja: 'ケース {n} 件とあなたの回答を削除しました。別のプログラムがまだデータベースの古いコピーを読み込んでいるため、その処理が終わるまではデータベースのログに最後の痕跡が残ります。終わり次第こちらで消去しますので、何もする必要はありません。', ko: '케이스 {n}개와 답변을 삭제했어요. 다른 프로그램이 아직 데이터베이스의 이전 사본을 읽고 있어서, 마지막 흔적이 그 작업이 끝날 때까지 로그에 남아 있어요. 작업이 끝나면 제가 자동으로 지울 테니 따로 하실 일은 없어요.', 'zh-Hant': '已刪除 {n} 個問題記錄和你的回答。另一個程式仍在讀取資料庫的舊副本，所以它們的最後痕跡暫時留在資料庫日誌裡，等它讀完我會自動清除，你無需再操作。',
  },
  forgetCancelled: { en: 'Nothing was deleted.', zh: '没有删除任何内容。', ja: '何も削除していません。', ko: '아무것도 삭제하지 않았어요.', 'zh-Hant': '沒有刪除任何內容。' },
  /** Watch mode's quiet offer under an error someone posted, and its button (only theirs, or a moderator's). */
  watchOffer: {
    en: 'That looks like a ComfyUI out-of-memory error. Want me to walk you through fixing it?',
    zh: '这看起来是 ComfyUI 的内存不足错误。需要我一步步帮你解决吗？', ja: 'ComfyUI のメモリ不足エラーのようです。解決まで順番にご案内しましょうか？', ko: 'ComfyUI 메모리 부족 오류 같아요. 해결 과정을 단계별로 안내해 드릴까요?', 'zh-Hant': '這看起來是 ComfyUI 的記憶體不足錯誤。需要我一步步幫你解決嗎？',
  },
  watchButton: { en: 'Diagnose it', zh: '帮我诊断', ja: '診断してもらう', ko: '진단하기', 'zh-Hant': '幫我診斷' },
  offerNotYours: { en: 'This offer is for the person who posted the error (or a moderator).', zh: '这个按钮是给发出报错的人（或管理员）用的。', ja: 'このボタンは、エラーを投稿した本人（またはモデレーター）用です。', ko: '이 제안은 오류를 올린 분(또는 운영진)만 쓸 수 있어요.', 'zh-Hant': '這個按鈕是給發出報錯的人（或管理員）用的。' },
  optedOut: {
    en: "This channel's admins turned me off here. Send me the log in a direct message, or use another channel.",
    zh: '管理员在这个频道关闭了我。请私信我发送日志，或换一个频道。', ja: 'このチャンネルでは、管理者によって私がオフにされています。ダイレクトメッセージでログを送るか、別のチャンネルを使ってください。', ko: '이 채널의 관리자가 여기서는 저를 꺼 두었어요. DM으로 로그를 보내거나 다른 채널을 이용해 주세요.', 'zh-Hant': '管理員在這個頻道關閉了我。請私信我傳送日誌，或換一個頻道。',
  },
  storeDown: {
    en: 'My database failed just now, so this was not saved. Please try again in a few minutes; your case is kept as it was before.',
    zh: '我的数据库刚才出错了，所以这次操作没有保存。请过几分钟再试；你的问题记录保持在这之前的状态。', ja: 'データベースでエラーが起きたため、今回の操作は保存されませんでした。数分後にもう一度お試しください。ケースはこの操作の前の状態のまま残っています。', ko: '방금 데이터베이스에 오류가 생겨서 이번 작업은 저장되지 않았어요. 몇 분 뒤에 다시 시도해 주세요. 케이스는 이전 상태 그대로 유지돼요.', 'zh-Hant': '我的資料庫剛才出錯了，所以這次操作沒有儲存。請過幾分鐘再試；你的問題記錄保持在這之前的狀態。',
  },
  badSince: { en: '"since" takes a number and w, d, h or m, for example 2w or 30d.', zh: '时间范围需要数字加 w、d、h 或 m，例如 2w 或 30d。', ja: '期間は、数字に w、d、h、m のいずれかを付けて指定してください（例：2w、30d）。', ko: '기간(since)에는 숫자에 w, d, h, m 중 하나를 붙여 입력하세요. 예: 2w 또는 30d.', 'zh-Hant': '時間範圍需要數字加 w、d、h 或 m，例如 2w 或 30d。' },
  questionTitle: { en: 'One question before the first step', zh: '开始之前先问一个问题', ja: '最初のステップの前に 1 つ質問です', ko: '첫 단계 전에 질문 하나 드릴게요', 'zh-Hant': '開始之前先問一個問題' },
  questions: {
    stage: {
      why: {
        en: 'Your log does not show where the memory ran out, and the fixes differ by node.',
        zh: '日志里看不出显存是在哪一步耗尽的，而不同节点的解决办法不一样。', ja: 'ログからはどこでメモリが不足したのかわからず、ノードによって解決策が異なります。', ko: '로그만으로는 어디서 메모리가 부족해졌는지 알 수 없는데, 해결 방법은 노드마다 달라요.', 'zh-Hant': '日誌裡看不出視訊記憶體是在哪一步耗盡的，而不同節點的解決辦法不一樣。',
      },
      ask: { en: 'Which node was running (outlined in red)?', zh: '出错时正在运行的是哪个节点（被红框标出的那个）？', ja: 'そのとき実行中だったのはどのノードですか（赤枠で囲まれたノード）？', ko: '어떤 노드가 실행 중이었나요(빨간 테두리로 표시된 노드)?', 'zh-Hant': '出錯時正在執行的是哪個節點（被紅框標出的那個）？' },
    },
    vendor: {
      why: {
        en: 'The error is worded for CUDA, which AMD cards under ZLUDA print too, and their fixes differ.',
        zh: '这个报错用的是 CUDA 的说法，而 AMD 显卡在 ZLUDA 下也会这样报错，两者的解决办法不一样。', ja: 'このエラーは CUDA の表現ですが、ZLUDA で動く AMD の GPU も同じ表現で出力します。両者は解決策が異なります。', ko: '이 오류는 CUDA 표현으로 되어 있는데, ZLUDA를 쓰는 AMD 그래픽카드도 똑같이 출력하고, 해결 방법은 서로 달라요.', 'zh-Hant': '這個報錯用的是 CUDA 的說法，而 AMD 顯示卡在 ZLUDA 下也會這樣報錯，兩者的解決辦法不一樣。',
      },
      ask: { en: 'NVIDIA, or AMD (ROCm/ZLUDA)?', zh: '你的显卡是 NVIDIA，还是 AMD（ROCm/ZLUDA）？', ja: 'GPU は NVIDIA ですか、それとも AMD（ROCm/ZLUDA）ですか？', ko: 'NVIDIA인가요, AMD(ROCm/ZLUDA)인가요?', 'zh-Hant': '你的顯示卡是 NVIDIA，還是 AMD（ROCm/ZLUDA）？' },
    },
  },
  choices: {
    nvidia: { en: 'NVIDIA', zh: 'NVIDIA（英伟达）', ja: 'NVIDIA', ko: 'NVIDIA', 'zh-Hant': 'NVIDIA（輝達）' },
    amd: { en: 'AMD (ROCm/ZLUDA)', zh: 'AMD（ROCm/ZLUDA）', ja: 'AMD（ROCm/ZLUDA）', ko: 'AMD (ROCm/ZLUDA)', 'zh-Hant': 'AMD（ROCm/ZLUDA）' },
    sampling: { en: 'Sampler (KSampler, SamplerCustom, WanVideoSampler...)', zh: '采样器（KSampler、SamplerCustom、WanVideoSampler…）', ja: 'サンプラー（KSampler、SamplerCustom、WanVideoSampler…）', ko: '샘플러 (KSampler, SamplerCustom, WanVideoSampler...)', 'zh-Hant': '取樣器（KSampler、SamplerCustom、WanVideoSampler…）' },
    vae: { en: 'VAE Decode/Encode', zh: 'VAE 解码/编码', ja: 'VAE Decode/Encode', ko: 'VAE 디코드/인코드', 'zh-Hant': 'VAE 解碼/編碼' },
    loader: { en: 'A loader (checkpoint, UNet, CLIP)', zh: '加载器（checkpoint、UNet、CLIP）', ja: 'ローダー（checkpoint、UNet、CLIP）', ko: '로더 (checkpoint, UNet, CLIP)', 'zh-Hant': '載入器（checkpoint、UNet、CLIP）' },
    other: { en: 'An upscaler, detailer or other node', zh: '放大、修脸或其他节点', ja: 'アップスケーラー、ディテーラー、その他のノード', ko: '업스케일러, 디테일러 또는 다른 노드', 'zh-Hant': '放大、修臉或其他節點' },
    unknown: { en: "I don't know", zh: '不知道', ja: 'わからない', ko: '모르겠어요', 'zh-Hant': '不知道' },
  },
  typeNodeHint: {
    en: 'You can also type the node’s name as ComfyUI shows it, for example KSampler or VAEDecode.',
    zh: '也可以直接输入 ComfyUI 里显示的节点名称，例如 KSampler 或 VAEDecode。', ja: 'ComfyUI に表示されているノード名を入力することもできます（例：KSampler、VAEDecode）。', ko: 'ComfyUI에 표시되는 노드 이름을 직접 입력해도 돼요. 예: KSampler, VAEDecode.', 'zh-Hant': '也可以直接輸入 ComfyUI 裡顯示的節點名稱，例如 KSampler 或 VAEDecode。',
  },
  clarified: { en: 'Got it: {answer}.', zh: '明白了：{answer}。', ja: '了解しました：{answer}。', ko: '알겠어요: {answer}.', 'zh-Hant': '明白了：{answer}。' },
  clarifiedReplanned: { en: 'Got it: {answer}. So this is: {entry}. Here are the fixes for that.', zh: '明白了：{answer}。那么问题是：{entry}。下面是对应的修复步骤。', ja: '了解しました：{answer}。それなら、これは「{entry}」です。その解決策は次のとおりです。', ko: '알겠어요: {answer}. 그렇다면 진단은 다음과 같아요: {entry}. 이에 맞는 해결 방법을 알려 드릴게요.', 'zh-Hant': '明白了：{answer}。那麼問題是：{entry}。下面是對應的修復步驟。' },
  clarifiedUnknown: { en: 'No problem: I will go by what the log shows.', zh: '没关系，我就按日志里的信息来。', ja: '大丈夫です。ログからわかる情報をもとに進めます。', ko: '괜찮아요. 로그에 나온 정보로 진행할게요.', 'zh-Hant': '沒關係，我就按日誌裡的資訊來。' },
  rediagnosed: { en: 'That log tells me more, so the question is settled:', zh: '这份日志提供了更多信息，刚才的问题不用回答了：', ja: 'このログで詳しいことがわかったので、先ほどの質問には答えなくて大丈夫です：', ko: '이 로그에 정보가 더 있어서, 앞의 질문에는 답하지 않아도 돼요:', 'zh-Hant': '這份日誌提供了更多資訊，剛才的問題不用回答了：' },
  rediagnosedDoubted: { en: 'Thanks. From this log, the diagnosis is:', zh: '谢谢。根据这份日志，新的诊断是：', ja: 'ありがとうございます。このログからの診断は次のとおりです：', ko: '감사해요. 이 로그로 보면 진단은 다음과 같아요:', 'zh-Hant': '謝謝。根據這份日誌，新的診斷是：' },
  misdiagnosed: {
    en: 'Sorry, I read your log wrong. I will diagnose it again and count this case apart, so the wrong diagnosis does not teach me.',
    zh: '抱歉，我看错了你的日志。我会重新诊断，并把这次记为误诊，错误的诊断不会计入我的经验。', ja: 'すみません、ログを読み違えていました。もう一度診断し直します。このケースは別扱いにして、誤った診断を学習しないようにします。', ko: '죄송해요, 로그를 잘못 읽었어요. 다시 진단하고, 잘못된 진단이 학습에 반영되지 않도록 이 케이스는 따로 집계할게요.', 'zh-Hant': '抱歉，我看錯了你的日誌。我會重新診斷，並把這次記為誤診，錯誤的診斷不會計入我的經驗。',
  },
  misdiagnosedAskLog: {
    en: 'Paste the whole console log, from the line where ComfyUI starts to the error (as a .txt file if it is long), or a screenshot of the error.',
    zh: '请粘贴完整的控制台日志：从 ComfyUI 启动的那一行一直到报错（太长就存成 .txt 文件上传），或者发一张报错截图。', ja: 'コンソールログ全体を、ComfyUI が起動する行からエラーまで貼り付けてください（長い場合は .txt ファイルで）。エラーのスクリーンショットでもかまいません。', ko: 'ComfyUI가 시작하는 줄부터 오류까지 전체 콘솔 로그를 붙여 넣어 주세요(길면 .txt 파일로). 또는 오류 스크린샷을 보내 주세요.', 'zh-Hant': '請貼上完整的控制台日誌：從 ComfyUI 啟動的那一行一直到報錯（太長就存成 .txt 檔案上傳），或者發一張報錯截圖。',
  },
  unknownEntry: { en: 'There is no kb entry "{entry}". Entries whose names come closest: {entries}.', zh: 'kb 里没有“{entry}”这个条目。名称最接近的条目：{entries}。', ja: 'kb に「{entry}」という項目はありません。名前が近い項目：{entries}。', ko: 'kb에 "{entry}" 항목이 없어요. 이름이 가장 비슷한 항목: {entries}.', 'zh-Hant': 'kb 裡沒有「{entry}」這個條目。名稱最接近的條目：{entries}。' },
  relabelled: { en: 'Relabelled: this case now counts as "{entry}" in stats and learning.', zh: '已更正：这个问题在统计和学习中改记为「{entry}」。', ja: '訂正しました：このケースは統計と学習で「{entry}」として扱われます。', ko: '수정했어요. 이 케이스는 이제 통계와 학습에서 "{entry}" 항목으로 집계돼요.', 'zh-Hant': '已更正：這個問題在統計和學習中改記為「{entry}」。' },
  typedUnknown: { en: 'I could not read {text} as an answer. Choose one of the answers above.', zh: '无法把 {text} 当作回答。请选择上面的一个答案。', ja: '{text} は回答として読み取れませんでした。上の選択肢から 1 つ選んでください。', ko: '답변으로 인식할 수 없어요: {text}. 위의 답변 중 하나를 골라 주세요.', 'zh-Hant': '無法把 {text} 當作回答。請選擇上面的一個答案。' },
  currentQuestion: { en: 'The current question is: {question}', zh: '当前的问题是：{question}', ja: '現在の質問：{question}', ko: '현재 질문: {question}', 'zh-Hant': '當前的問題是：{question}' },
  stepOf: { en: 'Step {n} of {total}', zh: '第 {n} 步（共 {total} 步）', ja: 'ステップ {n}/{total}', ko: '{total}단계 중 {n}단계', 'zh-Hant': '第 {n} 步（共 {total} 步）' },
  /** A step past the ones planned up front (UP_FRONT). */
  moreIdeaOf: { en: 'One more idea ({n} of {total})', zh: '更多办法（第 {n} 个，共 {total} 个）', ja: '別の案（{n}/{total}）', ko: '추가 방법 ({total}개 중 {n}번째)', 'zh-Hant': '更多辦法（第 {n} 個，共 {total} 個）' },
  askResult: { en: 'Try only this step, run the workflow again, then tell me how it went.', zh: '只做这一步，重新运行工作流，然后告诉我结果。', ja: 'このステップだけを試してワークフローをもう一度実行し、結果を教えてください。', ko: '이 단계만 해 보고 워크플로를 다시 실행한 뒤, 결과를 알려 주세요.', 'zh-Hant': '只做這一步，重新執行工作流，然後告訴我結果。' },
  howToStart: {
    en: 'Hi! Paste the error from your ComfyUI console here (the lines around the error, or the whole log as a .txt file), or a screenshot of it, and I will walk you through the fixes one step at a time.',
    zh: '你好！把 ComfyUI 控制台里的报错贴在这里（报错前后的几行，或把完整日志存成 .txt 文件上传），或者发一张截图，我会一步一步带你排查。', ja: 'こんにちは！ComfyUI のコンソールに出たエラーをここに貼り付けてください（エラー前後の行、またはログ全体を .txt ファイルで）。スクリーンショットでもかまいません。解決策を 1 ステップずつご案内します。', ko: '안녕하세요! ComfyUI 콘솔의 오류를 여기에 붙여 넣거나(오류 주변의 줄, 또는 전체 로그를 .txt 파일로), 스크린샷을 보내 주세요. 해결 방법을 한 단계씩 안내해 드릴게요.', 'zh-Hant': '你好！把 ComfyUI 控制台裡的報錯貼在這裡（報錯前後的幾行，或把完整日誌存成 .txt 檔案上傳），或者發一張截圖，我會一步一步帶你排查。',
  },
  takeYourTime: { en: 'Take your time: tell me how it went once you have tried it.', zh: '不着急：试过之后告诉我结果。', ja: '急がなくて大丈夫です。試したら結果を教えてください。', ko: '천천히 하세요. 해 보신 다음 결과를 알려 주세요.', 'zh-Hant': '不著急：試過之後告訴我結果。' },
  askOutcome: {
    en: 'Did "{step}" fix it? Press a button, or say it in words: "it worked", "still OOM", "a different error", "I couldn\'t do it", "skip".',
    zh: '“{step}”解决问题了吗？请按按钮，或直接说：“解决了”“还是显存不足”“换了个错误”“没法照做”“跳过”。', ja: '「{step}」で解決しましたか？ボタンを押すか、「解決した」「まだ OOM」「別のエラー」「できなかった」「スキップ」のように言葉で教えてください。', ko: '"{step}" 단계로 해결됐나요? 버튼을 누르거나 말로 알려 주세요: "해결됐어요", "아직 OOM이에요", "다른 오류가 나요", "못 했어요", "건너뛰기".', 'zh-Hant': '「{step}」解決問題了嗎？請按按鈕，或直接說：「解決了」「還是視訊記憶體不足」「換了個錯誤」「沒法照做」「跳過」。',
  },
  askReason: { en: 'What happened when you tried it?', zh: '照做之后是什么情况？', ja: '試してみてどうなりましたか？', ko: '해 보니 어떻게 됐나요?', 'zh-Hant': '照做之後是什麼情況？' },
  askLog: { en: 'Paste the new error or console log (the last 30–50 lines are enough).', zh: '请粘贴新的报错或控制台日志（最后 30–50 行就够了）。', ja: '新しいエラーまたはコンソールログを貼り付けてください（最後の 30–50 行で十分です）。', ko: '새 오류나 콘솔 로그를 붙여 넣어 주세요(마지막 30–50줄이면 충분해요).', 'zh-Hant': '請貼上新的報錯或控制台日誌（最後 30–50 行就夠了）。' },
  resolvedConfirmed: { en: 'Great, fixed by: {step}.', zh: '太好了，解决办法是：{step}。', ja: 'よかったです！解決策：{step}。', ko: '잘됐네요! 해결한 단계: {step}.', 'zh-Hant': '太好了，解決辦法是：{step}。' },
  /** What a confirmed fix does for others, said only where it does it (see Learner.record). */
  recorded: {
    adapts: {
      en: 'I recorded it: confirmed fixes decide which step others with this error are shown first.',
      zh: '已记录下来：确认有效的办法决定了之后遇到同样错误的人先看到哪一步。', ja: '記録しました。確認された解決策は、同じエラーの人に最初にどのステップを表示するかの判断に使われます。', ko: '기록했어요. 확인된 해결 방법에 따라 같은 오류를 겪는 다른 분들에게 어떤 단계를 먼저 보여 줄지 정해져요.', 'zh-Hant': '已記錄下來：確認有效的辦法決定了之後遇到同樣錯誤的人先看到哪一步。',
    },
    soon: {
      en: 'I recorded it: once {needed} people have confirmed a fix for this error ({confirmed} so far), confirmed fixes decide which step others are shown first.',
      zh: '已记录下来：等这个错误累计有 {needed} 人确认解决（目前 {confirmed} 人），确认有效的办法将决定之后的人先看到哪一步。', ja: '記録しました。このエラーの解決を {needed} 人が確認すると（現在 {confirmed} 人）、確認された解決策をもとに、他の人に最初に表示するステップが決まるようになります。', ko: '기록했어요. 이 오류의 해결을 확인한 분이 {needed}명이 되면(지금까지 {confirmed}명), 확인된 해결 방법에 따라 다른 분들에게 어떤 단계를 먼저 보여 줄지 정해져요.', 'zh-Hant': '已記錄下來：等這個錯誤累計有 {needed} 人確認解決（目前 {confirmed} 人），確認有效的辦法將決定之後的人先看到哪一步。',
    },
    stats: { en: 'I recorded it for the moderators’ statistics.', zh: '已记录到管理员的统计中。', ja: 'モデレーター向けの統計に記録しました。', ko: '운영진 통계용으로 기록했어요.', 'zh-Hant': '已記錄到管理員的統計中。' },
  },
  /** Shown with a step once enough people tried it (POLICY.showRateAfter): confirmed fixes only. */
  fixRate: { en: 'Fixed it for {share}% of {tried} people with this error.', zh: '遇到这个错误并试过这一步的 {tried} 人中，{share}% 确认解决了。', ja: 'このエラーでこのステップを試した {tried} 人のうち、{share}% が解決しました。', ko: '이 오류를 겪고 이 단계를 시도한 {tried}명 중 {share}%가 해결했어요.', 'zh-Hant': '遇到這個錯誤並試過這一步的 {tried} 人中，{share}% 確認解決了。' },
  fixRateAssumed: {
    en: '{assumed} more got past the error, judging by their next log (not counted above).',
    zh: '另有 {assumed} 人从之后的日志看也过了这一关（未计入上面的比例）。', ja: 'ほかに {assumed} 人が、次のログから判断してこのエラーを抜けています（上の数には含みません）。', ko: '그 밖에 {assumed}명은 다음 로그로 보아 오류를 넘어선 것 같아요(위 집계에는 포함하지 않았어요).', 'zh-Hant': '另有 {assumed} 人從之後的日誌看也過了這一關（未計入上面的比例）。',
  },
  resolvedAssumed: {
    en: 'That is no longer an out-of-memory error, so "{step}" got you past it. Here is what the new error means:',
    zh: '新的日志已经不是内存不足了，说明「{step}」起了作用。下面是新错误的含义：', ja: 'もうメモリ不足のエラーではないので、「{step}」で乗り越えられたようです。新しいエラーの意味は次のとおりです：', ko: '새 로그는 더 이상 메모리 부족 오류가 아니에요. "{step}" 단계로 그 오류는 넘어선 거예요. 새 오류의 의미는 이래요:', 'zh-Hant': '新的日誌已經不是記憶體不足了，說明「{step}」起了作用。下面是新錯誤的含義：',
  },
  notApplied: {
    en: 'That log shows "{step}" did not take effect, so I recorded it as "couldn\'t apply it", not as a failure. Here is the next step.',
    zh: '这份日志显示「{step}」没有生效，所以记为“没法照做”，而不是“没用”。下面是下一步。', ja: 'このログを見ると「{step}」が反映されていないので、「効果なし」ではなく「試せなかった」として記録しました。次のステップはこちらです。', ko: '이 로그를 보면 "{step}" 단계가 적용되지 않았어요. 그래서 실패가 아니라 "적용 못 함"으로 기록했어요. 다음 단계는 이거예요.', 'zh-Hant': '這份日誌顯示「{step}」沒有生效，所以記為「沒法照做」，而不是「沒用」。下面是下一步。',
  },
  sameFailure: { en: 'Still the same failure after "{step}". On to the next step.', zh: '做完「{step}」后还是同样的错误。继续下一步。', ja: '「{step}」の後も同じエラーのままです。次のステップに進みます。', ko: '"{step}" 단계 후에도 같은 오류예요. 다음 단계로 넘어갈게요.', 'zh-Hant': '做完「{step}」後還是同樣的錯誤。繼續下一步。' },
  progress: {
    en: 'Progress: "{step}" got past the first failure. The new one is different: {entry}. Switching to its fixes.',
    zh: '有进展：「{step}」解决了原来的问题。现在是另一个问题：{entry}。改用对应的修复步骤。', ja: '前進しました：「{step}」で最初のエラーは解消しました。新しいエラーは別のもの（{entry}）なので、その解決策に切り替えます。', ko: '진전이 있어요. "{step}" 단계로 첫 번째 오류는 넘어섰어요. 새 오류는 다른 종류예요: {entry}. 그에 맞는 해결 방법으로 바꿀게요.', 'zh-Hant': '有進展：「{step}」解決了原來的問題。現在是另一個問題：{entry}。改用對應的修復步驟。',
  },
  escalated: {
    en: "I have no more steps for this one. Here is a summary for the helpers in this channel; they can take it from here.",
    zh: '我已经没有更多步骤了。下面是给本频道热心人的摘要，他们可以接着帮你。', ja: 'このエラーについて、私から提案できるステップはもうありません。このチャンネルのヘルパー向けにまとめを載せます。ここから先はヘルパーの方が引き継げます。', ko: '이 문제에 대해 제가 드릴 수 있는 단계는 여기까지예요. 이 채널의 도우미분들을 위한 요약을 남길게요. 여기서부터는 도우미분들이 이어서 도와줄 거예요.', 'zh-Hant': '我已經沒有更多步驟了。下面是給本頻道熱心人的摘要，他們可以接著幫你。',
  },
  escalatedTerminal: {
    en: 'I have no more steps for this one. Here is a summary of everything tried: post it in a ComfyUI help channel or a GitHub issue, where people can take it from here.',
    zh: '我已经没有更多步骤了。下面是已尝试内容的摘要：把它发到 ComfyUI 求助频道或 GitHub issue，那里的人可以接着帮你。', ja: 'このエラーについて、私から提案できるステップはもうありません。これまで試したことのまとめを載せます。ComfyUI のヘルプチャンネルか GitHub の issue に投稿すれば、そこで誰かが引き継いでくれるはずです。', ko: '이 문제에 대해 제가 드릴 수 있는 단계는 여기까지예요. 지금까지 시도한 내용을 요약했으니 ComfyUI 도움 채널이나 GitHub 이슈에 올려 주세요. 거기서 다른 분들이 이어서 도와줄 수 있어요.', 'zh-Hant': '我已經沒有更多步驟了。下面是已嘗試內容的摘要：把它發到 ComfyUI 求助頻道或 GitHub issue，那裡的人可以接著幫你。',
  },
  cancelled: { en: 'Stopped. Paste a new log any time to start again.', zh: '已结束。随时粘贴新的日志即可重新开始。', ja: '終了しました。新しいログを貼り付ければ、いつでもまた始められます。', ko: '중단했어요. 언제든 새 로그를 붙여 넣으면 다시 시작해요.', 'zh-Hant': '已結束。隨時貼上新的日誌即可重新開始。' },
  reminder: {
    en: 'Still there? Did "{step}" help? Press a button, or say it in words ("it worked", "still OOM", "skip"). Without an answer, this case will close soon.',
    zh: '还在吗？“{step}”有用吗？请按按钮，或直接说（“解决了”“还是显存不足”“跳过”）。如果一直没有回复，这个问题很快会自动关闭。', ja: 'まだいらっしゃいますか？「{step}」は効果がありましたか？ボタンを押すか、言葉で教えてください（「解決した」「まだ OOM」「スキップ」）。返信がない場合、このケースはまもなく閉じられます。', ko: '아직 계신가요? "{step}" 단계가 도움이 됐나요? 버튼을 누르거나 말로 알려 주세요("해결됐어요", "아직 OOM이에요", "건너뛰기"). 답이 없으면 이 케이스는 곧 닫혀요.', 'zh-Hant': '還在嗎？「{step}」有用嗎？請按按鈕，或直接說（「解決了」「還是視訊記憶體不足」「跳過」）。如果一直沒有回覆，這個問題很快會自動關閉。',
  },
  reminderOther: {
    en: 'Still there? This case is waiting for your answer above. Without one, it will close soon.',
    zh: '还在吗？这个问题还在等你回答上面的提问。如果一直没有回复，它很快会自动关闭。', ja: 'まだいらっしゃいますか？このケースは上の質問への回答を待っています。返信がない場合、まもなく閉じられます。', ko: '아직 계신가요? 이 케이스는 위 질문에 대한 답을 기다리고 있어요. 답이 없으면 곧 닫혀요.', 'zh-Hant': '還在嗎？這個問題還在等你回答上面的提問。如果一直沒有回覆，它很快會自動關閉。',
  },
  abandoned: { en: 'This case was closed after a long time without an answer. Paste the log again to restart.', zh: '这个问题长时间没有回复，已自动关闭。重新粘贴日志即可再次开始。', ja: '長い間返信がなかったため、このケースは閉じられました。もう一度ログを貼り付ければ再開できます。', ko: '오랫동안 답이 없어서 이 케이스를 닫았어요. 다시 시작하려면 로그를 다시 붙여 넣어 주세요.', 'zh-Hant': '這個問題長時間沒有回覆，已自動關閉。重新貼上日誌即可再次開始。' },
  currentStep: { en: 'The case is at {place}: {step}.', zh: '当前进度：{place}：{step}。', ja: 'このケースは現在 {place} です：{step}。', ko: '케이스 진행 위치 — {place}: {step}.', 'zh-Hant': '當前進度：{place}：{step}。' },
  rejected: {
    not_owner: { en: 'Only the person who opened this case (or a moderator) can answer its buttons.', zh: '只有发起这个问题的人（或管理员）才能点这些按钮。', ja: 'このケースのボタンを押せるのは、ケースを開いた本人（またはモデレーター）だけです。', ko: '이 케이스를 연 분(또는 운영진)만 이 버튼으로 답할 수 있어요.', 'zh-Hant': '只有發起這個問題的人（或管理員）才能點這些按鈕。' },
    not_moderator: { en: 'Only moderators can relabel a case.', zh: '只有管理员才能更正问题的诊断。', ja: 'ケースの診断を訂正できるのはモデレーターだけです。', ko: '운영진만 케이스의 진단을 수정할 수 있어요.', 'zh-Hant': '只有管理員才能更正問題的診斷。' },
    stale: { en: 'That button belongs to an earlier question, so I ignored it.', zh: '这个按钮属于之前的问题，已忽略。', ja: 'そのボタンは以前の質問のものなので、無視しました。', ko: '이전 질문의 버튼이라 무시했어요.', 'zh-Hant': '這個按鈕屬於之前的問題，已忽略。' },
    closed: { en: 'This case is already closed. Paste a new log to start a new one.', zh: '这个问题已经结束。粘贴新的日志即可开始新的诊断。', ja: 'このケースはすでに終了しています。新しいログを貼り付けると、新しいケースを始められます。', ko: '이 케이스는 이미 닫혔어요. 새로 시작하려면 새 로그를 붙여 넣어 주세요.', 'zh-Hant': '這個問題已經結束。貼上新的日誌即可開始新的診斷。' },
    unexpected: { en: 'I could not find that case. Paste the log again to start over.', zh: '找不到这个问题记录。请重新粘贴日志。', ja: 'そのケースが見つかりませんでした。もう一度ログを貼り付けて、やり直してください。', ko: '그 케이스를 찾을 수 없어요. 처음부터 다시 하려면 로그를 다시 붙여 넣어 주세요.', 'zh-Hant': '找不到這個問題記錄。請重新貼上日誌。' },
  },
  answers: {
    worked: { en: 'worked', zh: '解决了', ja: '解決した', ko: '해결됨', 'zh-Hant': '解決了' },
    failed: { en: 'still failing', zh: '还是报错', ja: 'まだ失敗', ko: '여전히 실패', 'zh-Hant': '還是報錯' },
    skipped: { en: 'skipped', zh: '跳过', ja: 'スキップ', ko: '건너뜀', 'zh-Hant': '跳過' },
  },
  reasons: {
    same: { en: 'same error', zh: '同样的错误', ja: '同じエラー', ko: '같은 오류', 'zh-Hant': '同樣的錯誤' },
    different: { en: 'a different error', zh: '换了一个错误', ja: '別のエラー', ko: '다른 오류', 'zh-Hant': '換了一個錯誤' },
    could_not_apply: { en: "couldn't apply it", zh: '没法照做', ja: '試せなかった', ko: '적용 못 함', 'zh-Hant': '沒法照做' },
  },
  caseLabel: { en: 'case', zh: '问题', ja: 'ケース', ko: '케이스', 'zh-Hant': '問題' },
  diagnosisLabel: { en: 'Diagnosis', zh: '诊断', ja: '診断', ko: '진단', 'zh-Hant': '診斷' },
  triedLabel: { en: 'Tried', zh: '已尝试', ja: '試したこと', ko: '시도한 것', 'zh-Hant': '已嘗試' },
  emptyPaste: {
    en: 'Paste the error or the console log (text, a .txt/.log file, or a screenshot) and I will take it from there.',
    zh: '请粘贴报错或控制台日志（文字、.txt/.log 文件或截图），我来帮你看。', ja: 'エラーまたはコンソールログを貼り付けてください（テキスト、.txt/.log ファイル、スクリーンショットのいずれか）。そこから先はお任せください。', ko: '오류나 콘솔 로그를 붙여 넣어 주세요(텍스트, .txt/.log 파일, 또는 스크린샷). 나머지는 제가 맡을게요.', 'zh-Hant': '請貼上報錯或控制台日誌（文字、.txt/.log 檔案或截圖），我來幫你看。',
  },
  fileProblems: {
    too_big: { en: '{file} is too large to read (8 MB at most); attach the last few hundred lines instead.', zh: '{file} 太大，无法读取（最多 8 MB）；请只附上最后几百行。', ja: '{file} は大きすぎて読み込めません（最大 8 MB）。代わりに最後の数百行を添付してください。', ko: '{file} 파일은 너무 커서 읽을 수 없어요(최대 8 MB). 대신 마지막 몇백 줄만 첨부해 주세요.', 'zh-Hant': '{file} 太大，無法讀取（最多 8 MB）；請只附上最後幾百行。' },
    binary: { en: '{file} is not a text log.', zh: '{file} 不是文本日志。', ja: '{file} はテキストのログではありません。', ko: '{file} 파일은 텍스트 로그가 아니에요.', 'zh-Hant': '{file} 不是文本日誌。' },
    unsupported: { en: '{file} is not a file type I read (.txt, .log, .json, .md, a .zip or .gz of them, or a screenshot).', zh: '{file} 不是我能读取的文件类型（.txt、.log、.json、.md，它们的 .zip 或 .gz 压缩包，或截图）。', ja: '{file} は読み込めない種類のファイルです（対応：.txt、.log、.json、.md、それらの .zip や .gz、スクリーンショット）。', ko: '{file} 파일은 제가 읽을 수 있는 형식이 아니에요(.txt, .log, .json, .md, 이들의 .zip 또는 .gz, 또는 스크린샷).', 'zh-Hant': '{file} 不是我能讀取的檔案型別（.txt、.log、.json、.md，它們的 .zip 或 .gz 壓縮包，或截圖）。' },
    too_many: { en: '{file} was not read: at most 5 files per message.', zh: '{file} 未读取：每条消息最多 5 个文件。', ja: '{file} は読み込んでいません。1 つのメッセージにつき最大 5 ファイルまでです。', ko: '{file} 파일은 읽지 않았어요. 메시지 하나에 파일은 최대 5개까지예요.', 'zh-Hant': '{file} 未讀取：每條訊息最多 5 個檔案。' },
    unreadable: { en: '{file} could not be downloaded; please attach it again.', zh: '{file} 下载失败，请重新上传。', ja: '{file} をダウンロードできませんでした。もう一度添付してください。', ko: '{file} 파일을 다운로드할 수 없었어요. 다시 첨부해 주세요.', 'zh-Hant': '{file} 下載失敗，請重新上傳。' },
    archive_bomb: {
      en: '{file} unpacks to far more than a log (16 MB in all, 100 times its packed size at most): attach the log itself, or its last few hundred lines.',
      zh: '{file} 解压后远超一份日志的大小（总共最多 16 MB，最多为压缩大小的 100 倍）：请直接上传日志本身，或其最后几百行。', ja: '{file} は展開するとログとしては大きすぎます（合計 16 MB まで、かつ圧縮サイズの 100 倍まで）。ログそのもの、またはその最後の数百行を添付してください。', ko: '{file} 파일은 압축을 풀면 로그라기엔 너무 커요(전체 최대 16 MB, 압축 크기의 최대 100배). 로그 파일 자체나 마지막 몇백 줄을 첨부해 주세요.', 'zh-Hant': '{file} 解壓後遠超一份日誌的大小（總共最多 16 MB，最多為壓縮大小的 100 倍）：請直接上傳日誌本身，或其最後幾百行。',
    },
    archive_empty: { en: '{file} holds no text log (.txt, .log, .json) I could read.', zh: '{file} 里没有我能读取的文本日志（.txt、.log、.json）。', ja: '{file} には、読み込めるテキストのログ（.txt、.log、.json）が入っていません。', ko: '{file} 파일 안에 제가 읽을 수 있는 텍스트 로그(.txt, .log, .json)가 없어요.', 'zh-Hant': '{file} 裡沒有我能讀取的文本日誌（.txt、.log、.json）。' },
    archive_broken: { en: '{file} is not an archive I can open (damaged, or not really a .zip/.gz); attach the log itself.', zh: '{file} 无法打开（已损坏，或并不是真正的 .zip/.gz）；请直接上传日志本身。', ja: '{file} はアーカイブとして開けません（壊れているか、実際には .zip/.gz ではありません）。ログそのものを添付してください。', ko: '{file} 파일은 열 수 있는 압축 파일이 아니에요(손상됐거나 실제로는 .zip/.gz가 아니에요). 로그 파일 자체를 첨부해 주세요.', 'zh-Hant': '{file} 無法開啟（已損壞，或並不是真正的 .zip/.gz）；請直接上傳日誌本身。' },
    link_unreadable: {
      en: 'I could not read {file} (not found, not text, or too slow to answer); open it and paste the text here, or attach the log as a .txt file.',
      zh: '无法读取 {file}（找不到、不是文本或响应太慢）；请打开它并把文字贴在这里，或把日志存成 .txt 文件上传。', ja: '{file} を読み込めませんでした（見つからない、テキストでない、または応答が遅すぎる）。開いてテキストをここに貼り付けるか、ログを .txt ファイルで添付してください。', ko: '{file}을(를) 읽을 수 없었어요(찾을 수 없거나, 텍스트가 아니거나, 응답이 너무 느려요). 직접 열어서 텍스트를 여기에 붙여 넣거나, 로그를 .txt 파일로 첨부해 주세요.', 'zh-Hant': '無法讀取 {file}（找不到、不是文本或響應太慢）；請開啟它並把文字貼在這裡，或把日誌存成 .txt 檔案上傳。',
    },
    link_encrypted: {
      en: '{file} is encrypted and only opens in a browser; open it and paste the text here.',
      zh: '{file} 是加密的，只能在浏览器里打开；请打开后把文字贴在这里。', ja: '{file} は暗号化されていて、ブラウザーでしか開けません。開いてテキストをここに貼り付けてください。', ko: '{file}은(는) 암호화되어 있어서 브라우저에서만 열려요. 열어서 텍스트를 여기에 붙여 넣어 주세요.', 'zh-Hant': '{file} 是加密的，只能在瀏覽器裡開啟；請開啟後把文字貼在這裡。',
    },
    image: { en: '{file} is a screenshot, and reading screenshots is off here; please paste the text.', zh: '{file} 是截图，这里没有开启截图识别；请粘贴文字。', ja: '{file} はスクリーンショットですが、ここではスクリーンショットの読み取りがオフになっています。テキストを貼り付けてください。', ko: '{file} 파일은 스크린샷인데, 여기서는 스크린샷 읽기가 꺼져 있어요. 텍스트를 붙여 넣어 주세요.', 'zh-Hant': '{file} 是截圖，這裡沒有開啟截圖識別；請貼上文字。' },
    too_many_pixels: { en: '{file} has too many pixels to read (40 megapixels at most); crop it to the error.', zh: '{file} 像素太多（最多 40 MP，即 4000 万像素），请裁剪到报错部分。', ja: '{file} はピクセル数が多すぎて読み取れません（最大 40 メガピクセル）。エラーの部分だけを切り抜いてください。', ko: '{file} 파일은 픽셀 수가 너무 많아서 읽을 수 없어요(최대 40메가픽셀). 오류 부분만 잘라 주세요.', 'zh-Hant': '{file} 像素太多（最多 40 MP，即 4000 萬像素），請裁剪到報錯部分。' },
    ocr_timeout: { en: 'Reading {file} took too long; crop the screenshot to the error, or paste the text.', zh: '识别 {file} 超时；请把截图裁剪到报错部分，或直接粘贴文字。', ja: '{file} の読み取りに時間がかかりすぎました。スクリーンショットをエラーの部分だけ切り抜くか、テキストを貼り付けてください。', ko: '{file} 파일을 읽는 데 너무 오래 걸렸어요. 스크린샷에서 오류 부분만 잘라서 보내거나 텍스트를 붙여 넣어 주세요.', 'zh-Hant': '識別 {file} 超時；請把截圖裁剪到報錯部分，或直接貼上文字。' },
    ocr_failed: { en: 'I could not read the text in {file}; please paste the text.', zh: '无法识别 {file} 中的文字，请直接粘贴文字。', ja: '{file} の文字を読み取れませんでした。テキストを貼り付けてください。', ko: '{file} 파일의 텍스트를 읽을 수 없었어요. 텍스트를 붙여 넣어 주세요.', 'zh-Hant': '無法識別 {file} 中的文字，請直接貼上文字。' },
  },
  rateLimited: {
    en: 'You are sending logs faster than I can help; please wait a minute and try again.',
    zh: '你发送日志的速度太快了，请稍等一分钟再试。', ja: 'ログの送信ペースが速すぎて、対応が追いつきません。1 分ほど待ってからもう一度お試しください。', ko: '제가 도와드리는 속도보다 로그가 더 빨리 오고 있어요. 1분 정도 기다렸다가 다시 시도해 주세요.', 'zh-Hant': '你傳送日誌的速度太快了，請稍等一分鐘再試。',
  },
  imageRateLimited: {
    en: 'Reading screenshots takes a while; please send at most 3 a minute, or paste the text.',
    zh: '识别截图比较耗时；每分钟最多发送 3 张，或者直接粘贴文字。', ja: 'スクリーンショットの読み取りには時間がかかります。1 分あたり 3 枚までにするか、テキストを貼り付けてください。', ko: '스크린샷을 읽는 데는 시간이 좀 걸려요. 1분에 최대 3장까지 보내거나 텍스트를 붙여 넣어 주세요.', 'zh-Hant': '識別截圖比較耗時；每分鐘最多傳送 3 張，或者直接貼上文字。',
  },
  ocrDoubt: {
    en: 'I read this from your screenshot, but I am not sure enough to diagnose it:',
    zh: '这是我从截图里读到的内容，但我没有把握据此诊断：', ja: 'スクリーンショットから次のように読み取りましたが、診断できるほどの確信がありません：', ko: '스크린샷에서 이렇게 읽었는데, 진단하기에는 확신이 부족해요:', 'zh-Hant': '這是我從截圖裡讀到的內容，但我沒有把握據此診斷：',
  },
  ocrDoubtAsk: {
    en: 'Is that right? Please paste the error as text (or attach the log file) so I do not guess. (OCR confidence {confidence}%)',
    zh: '读得对吗？请以文字形式粘贴报错（或上传日志文件），以免我猜错。（识别置信度 {confidence}%）', ja: 'これで合っていますか？推測で診断しないよう、エラーをテキストで貼り付けてください（またはログファイルを添付してください）。（OCR の信頼度 {confidence}%）', ko: '제대로 읽었나요? 추측하지 않도록 오류를 텍스트로 붙여 넣어 주세요(또는 로그 파일을 첨부해 주세요). (OCR 신뢰도 {confidence}%)', 'zh-Hant': '讀得對嗎？請以文字形式貼上報錯（或上傳日誌檔案），以免我猜錯。（識別置信度 {confidence}%）',
  },
  notALog: {
    en: 'I found no error in that. To continue, paste the new console output (or use the buttons).',
    zh: '这段内容里没有报错。要继续，请粘贴新的控制台输出（或使用按钮）。', ja: 'そこにはエラーが見つかりませんでした。続けるには、新しいコンソール出力を貼り付けてください（またはボタンを使ってください）。', ko: '거기서는 오류를 찾지 못했어요. 계속하려면 새 콘솔 출력을 붙여 넣거나 버튼을 사용하세요.', 'zh-Hant': '這段內容裡沒有報錯。要繼續，請貼上新的控制台輸出（或使用按鈕）。',
  },
  noErrorToOpen: {
    en: "I found no error in that, so I haven't opened a case. Paste the console output from when it failed (the lines with the error), a .txt/.log file, or a screenshot.",
    zh: '这段内容里没有报错，所以没有创建问题单。请粘贴出错时的控制台输出（带报错的那几行）、.txt/.log 文件或截图。', ja: 'そこにはエラーが見つからなかったため、ケースは開いていません。失敗したときのコンソール出力（エラーの出ている行）、.txt/.log ファイル、またはスクリーンショットを貼り付けてください。', ko: '거기서는 오류를 찾지 못해서 케이스를 열지 않았어요. 실패했을 때의 콘솔 출력(오류가 있는 줄), .txt/.log 파일, 또는 스크린샷을 붙여 넣어 주세요.', 'zh-Hant': '這段內容裡沒有報錯，所以沒有建立問題單。請粘貼出錯時的控制台輸出（帶報錯的那幾行）、.txt/.log 檔案或截圖。',
  },
  binaryPaste: { en: 'That looks like a binary file, not a log. Paste the console text or attach a .txt/.log file.', zh: '这看起来是二进制文件，不是日志。请粘贴控制台文字，或上传 .txt/.log 文件。', ja: 'それはログではなく、バイナリファイルのようです。コンソールのテキストを貼り付けるか、.txt/.log ファイルを添付してください。', ko: '로그가 아니라 바이너리 파일 같아요. 콘솔 텍스트를 붙여 넣거나 .txt/.log 파일을 첨부해 주세요.', 'zh-Hant': '這看起來是二進位制檔案，不是日誌。請貼上控制台文字，或上傳 .txt/.log 檔案。' },
} as const;
