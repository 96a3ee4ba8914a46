import { layoutRequiring } from "@/lib/org-access";

export default layoutRequiring("log_streams.manage");
