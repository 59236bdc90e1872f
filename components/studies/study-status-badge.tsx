import { Badge } from '@/components/ui/layout';
import type { StudyStatus } from '@/lib/domain/vocabulary';

export function StudyStatusBadge({ status, label }: { status: StudyStatus; label: string }) {
  return (
    <span data-testid="study-status" data-status={status}>
      <Badge tone={status === 'open' ? 'green' : status === 'closed' ? 'neutral' : 'amber'}>{label}</Badge>
    </span>
  );
}
