import { Link } from '@tanstack/react-router'
import { Title } from '../parts/title.tsx'
import { strings } from '../strings/index.ts'

export function NotFoundPage() {
  return (
    <>
      <Title text={strings.notFound.title} />
      <p>{strings.notFound.text}</p>
      <p>
        <Link to="/">{strings.notFound.home}</Link>
      </p>
    </>
  )
}
