/** The sandbox gateway's page texts, by ECPay's Language parameter (empty: Traditional Chinese). */
export interface SandboxTexts {
  lang: string;
  title: string;
  notice: string;
  order: string;
  amount: string;
  pay: string;
  decline: string;
  atm: string;
  atmIssued: string;
  bank: string;
  account: string;
  payBy: string;
  transferNow: string;
  back: string;
  invalid: string;
}

const TEXTS: Record<string, SandboxTexts> = {
  "": {
    lang: "zh-Hant-TW",
    title: "測試付款閘道",
    notice: "這是測試付款：不會扣任何款項。",
    order: "交易編號",
    amount: "金額",
    pay: "付款",
    decline: "拒絕付款",
    atm: "取得 ATM 帳號，稍後轉帳",
    atmIssued: "已產生 ATM 轉帳帳號。",
    bank: "銀行代碼",
    account: "轉帳帳號",
    payBy: "繳費期限",
    transferNow: "模擬完成轉帳",
    back: "返回飯店網站",
    invalid: "檢查碼錯誤：這筆交易資料無效。",
  },
  CHI: {
    lang: "zh-Hans-CN",
    title: "测试付款网关",
    notice: "这是测试付款：不会扣任何款项。",
    order: "交易编号",
    amount: "金额",
    pay: "付款",
    decline: "拒绝付款",
    atm: "取得 ATM 账号，稍后转账",
    atmIssued: "已生成 ATM 转账账号。",
    bank: "银行代码",
    account: "转账账号",
    payBy: "缴费期限",
    transferNow: "模拟完成转账",
    back: "返回酒店网站",
    invalid: "校验码错误：这笔交易数据无效。",
  },
  ENG: {
    lang: "en-US",
    title: "Test payment gateway",
    notice: "This is a test payment: no money is charged.",
    order: "Trade number",
    amount: "Amount",
    pay: "Pay",
    decline: "Decline",
    atm: "Get an ATM account and pay later",
    atmIssued: "An ATM account was issued.",
    bank: "Bank code",
    account: "Account",
    payBy: "Pay by",
    transferNow: "Simulate the transfer now",
    back: "Back to the hotel's site",
    invalid: "CheckMacValue error: this trade is not valid.",
  },
  JPN: {
    lang: "ja-JP",
    title: "テスト決済ゲートウェイ",
    notice: "これはテスト決済です。料金は一切請求されません。",
    order: "取引番号",
    amount: "金額",
    pay: "支払う",
    decline: "支払いを拒否",
    atm: "ATM 口座番号を取得して後で振り込む",
    atmIssued: "ATM 振込口座が発行されました。",
    bank: "銀行コード",
    account: "振込口座",
    payBy: "お支払い期限",
    transferNow: "振込完了をシミュレート",
    back: "ホテルのサイトへ戻る",
    invalid: "チェックコードエラー：この取引データは無効です。",
  },
  KOR: {
    lang: "ko-KR",
    title: "테스트 결제 게이트웨이",
    notice: "테스트 결제입니다. 실제로 청구되는 금액은 없습니다.",
    order: "거래 번호",
    amount: "금액",
    pay: "결제",
    decline: "결제 거절",
    atm: "ATM 계좌를 받고 나중에 이체",
    atmIssued: "ATM 이체 계좌가 발급되었습니다.",
    bank: "은행 코드",
    account: "이체 계좌",
    payBy: "납부 기한",
    transferNow: "이체 완료 시뮬레이션",
    back: "호텔 사이트로 돌아가기",
    invalid: "검증 코드 오류: 이 거래 데이터는 유효하지 않습니다.",
  },
};

export function sandboxTexts(language: string | undefined): SandboxTexts {
  return TEXTS[language ?? ""] ?? (TEXTS[""] as SandboxTexts);
}
